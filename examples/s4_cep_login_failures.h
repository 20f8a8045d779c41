// Scenario S4's job, shared by the example program and the tests that run
// it through failures (tests/examples/scenario_failure_test.cc).
#pragma once

#include <chrono>
#include <string>

#include <fmt/format.h>

#include "click_events.h"
#include "login_events.h"
#include "tidemark/tidemark.h"

namespace s4 {

using click_events::Script;
using login_events::LoginEvent;

inline const char* const kLines[] = {"user_1,192.168.0.1,fail,2000",  "user_1,192.168.0.2,fail,3000",
                                     "user_2,192.168.1.29,fail,4000", "user_1,171.56.23.10,fail,5000",
                                     "user_2,192.168.1.29,fail,7000", "user_2,192.168.1.29,fail,8000",
                                     "user_2,192.168.1.29,success,6000"};

/// Variant a: the 7 lines at virtual time 0; b: at 1..7 s, then a late failure at 8 s.
inline Script scenarioScript(bool variant_b) {
  Script script;
  tidemark::Duration at = 0;
  for (const char* line : kLines) {
    if (variant_b) at += 1000;
    script.push_back({at, line, {}});
  }
  // At 8 s the watermark is 8000 - 3000 - 1 = 4999, so this one is late.
  if (variant_b) script.push_back({8000, "user_1,192.168.0.3,fail,4000", {}});
  return script;
}

/// Renders a match of the three failures as the alert line.
inline std::string alertFor(const tidemark::Match<LoginEvent>& match) {
  const LoginEvent& first = match.at("first").front();
  return fmt::format("{} failed to log in 3 times in a row: {}, {}, {}", first.user, first.timestamp,
                     match.at("second").front().timestamp, match.at("third").front().timestamp);
}

/// Three failed logins in a row within 10 s.
inline tidemark::Pattern<LoginEvent> threeFailures() {
  const auto fail = [](const LoginEvent& e) { return e.type == "fail"; };
  return tidemark::Pattern<LoginEvent>::begin("first")
      .where(fail)
      .next("second")
      .where(fail)
      .next("third")
      .where(fail)
      .within(std::chrono::seconds(10));
}

/// What the job prints: the alerts ("alert> ") and the late events ("late> ").
struct LoginAlerts {
  tidemark::SingleOutputStreamOperator<std::string> alerts;
  tidemark::DataStream<LoginEvent> late;
};

/// lines -> parse -> watermarks 3 s out of order -> keyBy(user) -> the
/// pattern, in event time, late events to a side output.
inline LoginAlerts loginAlerts(const tidemark::DataStream<std::string>& lines) {
  const auto timestamp_of = [](const LoginEvent& e, tidemark::Timestamp) { return e.timestamp; };
  auto logins = lines.map([](const std::string& line) { return login_events::parseLoginEvent(line); })
                    .name("parse")
                    .assignTimestampsAndWatermarks(
                        tidemark::WatermarkStrategy<LoginEvent>::forBoundedOutOfOrderness(std::chrono::seconds(3))
                            .withTimestampAssigner(timestamp_of));
  // The late side output and the alerts leave the same operator, whose sinks
  // are chained to it: a late event prints when it arrives, an alert when
  // the watermark passes its last event, so the order follows event time.
  const tidemark::OutputTag<LoginEvent> late("late");
  auto alerts = tidemark::CEP::pattern(logins.keyBy([](const LoginEvent& e) { return e.user; }), threeFailures())
                    .sideOutputLateData(late)
                    .select(alertFor);
  return {alerts, alerts.getSideOutput(late)};
}

}  // namespace s4
