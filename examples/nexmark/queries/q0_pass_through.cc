#include "q0_pass_through.h"

namespace tidemark::nexmark {

DataStream<Event> q0PassThrough(const DataStream<Event>& events) {
  return events.filter([](const Event& event) { return event.bid() != nullptr; }).name("q0: bids");
}

}  // namespace tidemark::nexmark
