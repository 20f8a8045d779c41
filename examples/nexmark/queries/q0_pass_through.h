// Q0, pass-through: every bid, unchanged. What it costs to move events
// through the engine and nothing else.
#pragma once

#include "nexmark/model.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

DataStream<Event> q0PassThrough(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
