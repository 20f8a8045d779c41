#include "q8_monitor_new_users.h"

#include <optional>
#include <span>
#include <utility>

#include "combine_until_watermark.h"
#include "tidemark/serialization/absl_serializers.h"

namespace tidemark::nexmark {

namespace {

/// What a window keeps of a person: the fields of the result. Everything
/// both sides send is buffered until the window fires, so they send only
/// what the result needs (a seller id alone for an auction).
struct Registration {
  std::int64_t id = 0;
  std::string_view name;
  Timestamp date_time = 0;
  auto fields() { return std::tie(id, name, date_time); }
};

struct Sale {
  std::int64_t seller = 0;
  auto fields() { return std::tie(seller); }
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const NewUser& user) {
  return os << "NewUser{id=" << user.id << ", name=" << user.name << ", windowStart=" << user.window_start << '}';
}

DataStream<NewUser> q8MonitorNewUsers(const DataStream<Event>& events) {
  auto people = events
                    .flatMap<Registration>([](const Event& event, Collector<Registration>& out) {
                      if (const Person* person = event.person()) {
                        out.collect(Registration{person->id, person->name, person->date_time});
                      }
                    })
                    .name("q8: people");
  auto auctions = events
                      .flatMap<Sale>([](const Event& event, Collector<Sale>& out) {
                        if (const Auction* auction = event.auction()) out.collect(Sale{auction->seller});
                      })
                      .name("q8: auctions")
                      // The window asks only whether a seller sold at all, and
                      // the auctions of one seller and millisecond share their
                      // window: one of them is enough. Three in four auctions
                      // are the hot seller's, so far fewer cross the shuffle.
                      .transform<Sale>("q8: one auction per seller and instant", [] {
                        return combineUntilWatermark<Sale>(
                            [](const Sale& sale, Timestamp timestamp) {
                              return std::optional{std::pair{sale.seller, timestamp}};
                            },
                            [](Sale&, const Sale&) {});
                      });
  return people.coGroup(auctions)
      .where([](const Registration& person) { return person.id; })
      .equalTo([](const Sale& sale) { return sale.seller; })
      .window(TumblingEventTimeWindows::of(kNewUsersWindowSize))
      .apply<NewUser>([](std::span<const Registration> registered, std::span<const Sale> sold,
                         Collector<NewUser>& out) {
        // A person id is registered once, so one result per (person, window).
        if (registered.empty() || sold.empty()) return;
        const Registration& person = registered.front();
        // The person's own timestamp lies in this window: its start follows.
        const Timestamp window_start = TimeWindow::getWindowStartWithOffset(person.date_time, 0, kNewUsersWindowSize);
        out.collect(NewUser{person.id, person.name, window_start});
      })
      .name("q8: people who sold in their first window");
}

}  // namespace tidemark::nexmark
