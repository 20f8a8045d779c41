#include "q1_currency_conversion.h"

namespace tidemark::nexmark {

DataStream<Event> q1CurrencyConversion(const DataStream<Event>& events) {
  // One flatMap rather than filter + map: a single operator call per event.
  return events
      .flatMap<Event>([](const Event& event, Collector<Event>& out) {
        const Bid* bid = event.bid();
        if (bid == nullptr) return;
        Bid converted = *bid;
        converted.price = dollarsToEuros(bid->price);
        out.collect(Event{event.number, converted});
      })
      .name("q1: bids in euros");
}

}  // namespace tidemark::nexmark
