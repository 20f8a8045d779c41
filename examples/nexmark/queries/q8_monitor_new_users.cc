#include "q8_monitor_new_users.h"

#include <span>

namespace tidemark::nexmark {

std::ostream& operator<<(std::ostream& os, const NewUser& user) {
  return os << "NewUser{id=" << user.id << ", name=" << user.name << ", windowStart=" << user.window_start << '}';
}

DataStream<NewUser> q8MonitorNewUsers(const DataStream<Event>& events) {
  auto people = events
                    .flatMap<Person>([](const Event& event, Collector<Person>& out) {
                      if (const Person* person = event.person()) out.collect(*person);
                    })
                    .name("q8: people");
  auto auctions = events
                      .flatMap<Auction>([](const Event& event, Collector<Auction>& out) {
                        if (const Auction* auction = event.auction()) out.collect(*auction);
                      })
                      .name("q8: auctions");
  return people.coGroup(auctions)
      .where([](const Person& person) { return person.id; })
      .equalTo([](const Auction& auction) { return auction.seller; })
      .window(TumblingEventTimeWindows::of(kNewUsersWindowSize))
      .apply<NewUser>([](std::span<const Person> registered, std::span<const Auction> sold,
                         Collector<NewUser>& out) {
        // A person id is registered once, so one result per (person, window).
        if (registered.empty() || sold.empty()) return;
        const Person& person = registered.front();
        // The person's own timestamp lies in this window: its start follows.
        const Timestamp window_start = TimeWindow::getWindowStartWithOffset(person.date_time, 0, kNewUsersWindowSize);
        out.collect(NewUser{person.id, person.name, window_start});
      })
      .name("q8: people who sold in their first window");
}

}  // namespace tidemark::nexmark
