// Q1, currency conversion: every bid, with its price converted from dollars
// to euros (cents, truncated). A stateless per-record map: what one cheap
// transformation costs on top of q0.
#pragma once

#include <cstdint>

#include "nexmark/model.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// Euro cents for `dollar_cents` at the benchmark's fixed rate of 0.908.
constexpr std::int64_t dollarsToEuros(std::int64_t dollar_cents) { return dollar_cents * 908 / 1000; }

/// The bid events, each with its price in euros (the event keeps its number).
DataStream<Event> q1CurrencyConversion(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
