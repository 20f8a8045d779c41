// Scenario S5: one global window over all orders, reported every 10 s of
// processing time and restarted every minute, by a custom trigger.
//
// windowAll(GlobalWindows) never fires by itself; EveryTenSeconds registers
// a processing-time timer at the next multiple of 10 s after the first
// order, then re-registers it every 10 s. Each timer FIREs (the window keeps
// its orders), except on a whole minute, where it FIRE_AND_PURGEs (the next
// sum starts from zero). The window function prints the sum of prices with
// the processing time it fired at: "fired at=<ms> sum=<n>".
//
// Orders come from a CSV file (order_time_ms,price; default
// tests/data/s5-orders.csv, found from the repository root or next to the
// build tree); each is emitted at processing time = its order time. With
// --simulated the virtual clock starts at 1616949527000 (exact output); in
// real time the orders are replayed at their original pace, shifted to now.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "example_main.h"
#include "tidemark/tidemark.h"
#include "tidemark/windowing/global_windows.h"

namespace {

constexpr tidemark::Timestamp kScenarioStart = 1616949527000;
constexpr tidemark::Duration kReportEvery = 10'000;
constexpr tidemark::Duration kRestartEvery = 60'000;

struct Order {
  tidemark::Timestamp order_time = 0;
  std::int64_t price = 0;
};

std::vector<Order> readOrders(const std::string& path) {
  std::ifstream in = examples::openInput(path, "orders file");
  std::vector<Order> orders;
  std::string line;
  std::getline(in, line);  // header
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const auto comma = line.find(',');
    try {
      if (comma == std::string::npos) throw std::invalid_argument("no comma");
      std::size_t used_time = 0;
      std::size_t used_price = 0;
      const std::string time = line.substr(0, comma);
      const std::string price = line.substr(comma + 1);
      Order order{std::stoll(time, &used_time), std::stoll(price, &used_price)};
      if (used_time != time.size() || used_price != price.size()) throw std::invalid_argument("trailing text");
      orders.push_back(order);
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format("{}:{}: expected 'order_time_ms,price', got '{}'", path, number, line));
    }
  }
  return orders;
}

/// The orders file when none is given: the repository's test data, looked up
/// from the working directory and from the program's own location.
std::string defaultOrdersPath(const char* argv0) {
  const std::filesystem::path relative = "tests/data/s5-orders.csv";
  std::vector<std::filesystem::path> candidates{relative};
  for (std::filesystem::path dir = std::filesystem::absolute(argv0).parent_path(); dir.has_relative_path();
       dir = dir.parent_path()) {
    candidates.push_back(dir / relative);
  }
  for (const auto& candidate : candidates) {
    if (std::filesystem::exists(candidate)) return candidate.string();
  }
  throw std::runtime_error(fmt::format("cannot find {} (run from the repository root or pass --orders FILE)",
                                       relative.string()));
}

/// Emits each order when the processing-time clock reaches its order time
/// (shifted so the first scenario instant is the job's start).
class OrderReplay : public tidemark::SourceFunction<Order> {
 public:
  explicit OrderReplay(std::vector<Order> orders) : orders_(std::move(orders)) {}

  void run(tidemark::SourceContext<Order>& ctx) override {
    const tidemark::Duration shift = ctx.currentProcessingTime() - kScenarioStart;
    for (Order order : orders_) {
      if (ctx.isCancelled()) return;
      order.order_time += shift;
      const tidemark::Duration wait = order.order_time - ctx.currentProcessingTime();
      if (wait > 0) ctx.sleep(wait);
      ctx.collect(order);
    }
  }

 private:
  std::vector<Order> orders_;
};

/// Fires every 10 s of processing time after the first order; purges on whole minutes.
class EveryTenSeconds : public tidemark::Trigger<Order, tidemark::GlobalWindow> {
 public:
  using W = tidemark::GlobalWindow;

  tidemark::TriggerResult onElement(const Order& order, tidemark::Timestamp, const W&,
                                    tidemark::TriggerContext<W>& ctx) override {
    auto& started = ctx.getPartitionedState(kStarted);
    if (!started.value().value_or(false)) {
      started.update(true);
      ctx.registerProcessingTimeTimer(order.order_time - order.order_time % kReportEvery + kReportEvery);
    }
    return tidemark::TriggerResult::CONTINUE;
  }

  tidemark::TriggerResult onProcessingTime(tidemark::Timestamp time, const W&,
                                           tidemark::TriggerContext<W>& ctx) override {
    ctx.registerProcessingTimeTimer(time + kReportEvery);
    return time % kRestartEvery == 0 ? tidemark::TriggerResult::FIRE_AND_PURGE : tidemark::TriggerResult::FIRE;
  }

  tidemark::TriggerResult onEventTime(tidemark::Timestamp, const W&, tidemark::TriggerContext<W>&) override {
    return tidemark::TriggerResult::CONTINUE;
  }

  void clear(const W&, tidemark::TriggerContext<W>& ctx) override { ctx.getPartitionedState(kStarted).clear(); }

  std::string toString() const override { return "EveryTenSeconds"; }

 private:
  inline static const tidemark::ValueStateDescriptor<bool> kStarted{"started"};
};

class SumPrices : public tidemark::AggregateFunction<Order, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const Order& order, std::int64_t sum) override { return sum + order.price; }
  std::int64_t getResult(const std::int64_t& sum) override { return sum; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }
};

class ReportSum : public tidemark::ProcessAllWindowFunction<std::int64_t, std::string, tidemark::GlobalWindow> {
 public:
  void process(Context& ctx, std::span<const std::int64_t> sums, tidemark::Collector<std::string>& out) override {
    out.collect(fmt::format("fired at={} sum={}", ctx.currentProcessingTime(), sums.front()));
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scenario S5: a global window with a custom processing-time trigger"};
  bool simulated = false;
  std::string orders_path;
  app.add_flag("--simulated", simulated, "run in simulated time from 1616949527000 (exact output)");
  app.add_option("--orders", orders_path, "orders CSV (order_time_ms,price); default tests/data/s5-orders.csv");
  if (const auto exit_code = examples::parseArguments(app, argc, argv)) return *exit_code;

  return examples::runExample([&] {
    std::vector<Order> orders = readOrders(orders_path.empty() ? defaultOrdersPath(argv[0]) : orders_path);
    auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (simulated) env.enableSimulatedTime(kScenarioStart);
    env.addSource(OrderReplay(std::move(orders)), "orders")
        .windowAll(tidemark::GlobalWindows::create())
        .trigger(EveryTenSeconds{})
        .aggregate(SumPrices{}, ReportSum{})
        .print();
    env.execute("S5 global window trigger");
  });
}
