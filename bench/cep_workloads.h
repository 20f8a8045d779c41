// cep-login and cep-any: generator -> map to a CepEvent -> keyBy -> CEP
// pattern in event time -> checksum sink.
//
//   cep-login  100,000 users, 5 % failed logins; per user
//              begin("first").where(fail).next("second").where(fail)
//              .next("third").where(fail).within(10 s)
//              (scenario S4's pattern).
//   cep-any    10,000 keys, events of type A, B, C or D (1 %, 3 %, 0.5 %,
//              the rest D); per key
//              begin("start").where(A).followedByAny("middle").where(B)
//              .oneOrMore().followedBy("end").where(C).within(1 s).
//              An A followed by k B's holds about k(k+1)/2 + k + 1 partial
//              matches (every run of consecutive B's waits for a C) until a C
//              completes the runs or the window ends them: ~35,000 are alive
//              at once (a key sees ~100 events per window), and within()
//              bounds them. Each event visits every partial match of its key,
//              so this is far slower per event than cep-login.
//
// Record i of the generator is event i: its key is keyOf(i), its type a
// second pseudo-random draw from i (cepDraw), its timestamp i / records-per-ms.
// The generator emits one watermark per millisecond, as for the window
// workloads. Events of one key with the same timestamp can come from two
// source subtasks in either order, so a comparator on the sequence number i
// puts them back in generator order: the matches do not depend on
// parallelism or timing.
//
// The sink folds each match's events (in pattern order) into one checksum term
// and counts the matches; nothing is printed per match.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <utility>

#include "keyed_timers.h"
#include "workload_common.h"

namespace tidemark::bench {

struct CepEvent {
  std::int64_t key = 0;
  std::int64_t seq = 0;  // the generator index
  Timestamp ts = 0;
  std::int32_t type = 0;

  friend bool operator==(const CepEvent&, const CepEvent&) = default;
  friend std::ostream& operator<<(std::ostream& os, const CepEvent& e) {
    return os << "CepEvent{key=" << e.key << ", seq=" << e.seq << ", ts=" << e.ts << ", type=" << e.type << '}';
  }
};

/// A draw in [0, 1000) for record i, independent of its key (keyOf uses mix(i)).
constexpr std::int64_t cepDraw(std::int64_t i) {
  return static_cast<std::int64_t>(mix(static_cast<std::uint64_t>(i) ^ 0x5bd1e9955bd1e995ULL) % 1000);
}

/// Folds one event of a match into the match's running term: order matters.
constexpr std::uint64_t cepFold(std::uint64_t term, std::int64_t seq) {
  return checksumTerm(static_cast<std::int64_t>(term), seq);
}
constexpr std::uint64_t cepMatchStart(std::int64_t key) { return mix(static_cast<std::uint64_t>(key)); }

// ---- cep-login ----

inline constexpr std::int32_t kLoginSuccess = 0;
inline constexpr std::int32_t kLoginFail = 1;
inline constexpr Duration kLoginWindow = 10'000;

struct CepLoginParams {
  std::int64_t users = 100'000;
  std::int64_t fail_per_mille = 50;
};

constexpr std::int32_t loginTypeOf(std::int64_t i, const CepLoginParams& p) {
  return cepDraw(i) < p.fail_per_mille ? kLoginFail : kLoginSuccess;
}

// ---- cep-any ----

inline constexpr std::int32_t kTypeA = 0;
inline constexpr std::int32_t kTypeB = 1;
inline constexpr std::int32_t kTypeC = 2;
inline constexpr std::int32_t kTypeD = 3;

struct CepAnyParams {
  std::int64_t keys = kNumKeys;
  Duration window = 1000;
  // Types by cepDraw(i): [0, a) A, [a, b) B, [b, c) C, the rest D.
  std::int64_t a_below = 10;
  std::int64_t b_below = 40;
  std::int64_t c_below = 45;
};

constexpr std::int32_t anyTypeOf(std::int64_t i, const CepAnyParams& p) {
  const std::int64_t d = cepDraw(i);
  if (d < p.a_below) return kTypeA;
  if (d < p.b_below) return kTypeB;
  if (d < p.c_below) return kTypeC;
  return kTypeD;
}

// ---- the job ----

class CepMatchSink final : public SinkFunction<std::uint64_t> {
 public:
  explicit CepMatchSink(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}

  void invoke(const std::uint64_t& term, const Context&) override {
    checksum_ += term;
    ++matches_;
  }

  void finish() override { tally_->add(checksum_, matches_, matches_); }

 private:
  std::shared_ptr<Tally> tally_;
  std::uint64_t checksum_ = 0;
  std::int64_t matches_ = 0;
};

/// One match's checksum term: its key, then every event in pattern order.
inline std::uint64_t cepMatchTerm(const Match<CepEvent>& match) {
  std::uint64_t term = 0;
  bool first = true;
  for (const auto& [name, events] : match) {
    for (const CepEvent& e : events) {
      if (first) term = cepMatchStart(e.key);
      first = false;
      term = cepFold(term, e.seq);
    }
  }
  return term;
}

/// Runs `pattern` per key over the generator's records mapped by `type_of`.
template <class TypeOf>
WorkloadResult runCepJob(const WorkloadOptions& options, const char* name, std::int64_t keys, TypeOf type_of,
                         const Pattern<CepEvent>& pattern) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  auto alignment = std::make_shared<EventTimeAlignment>(options.parallelism, kMaxSourceDrift);
  const std::int64_t records_per_milli = options.records_per_milli;
  auto events =
      env.addSource(GeneratorSource(options.records, options.records_per_milli, true, options.steady_hooks, alignment)
                        .withKeys(keys),
                    "generator")
          .map([records_per_milli, type_of](const Event& e) {
            return CepEvent{e.key, e.value, timestampOf(e.value, records_per_milli), type_of(e.value)};
          })
          .name("to events")
          .keyBy([](const CepEvent& e) { return e.key; });
  // (A std::function: the element type is deduced from the stream, not from a lambda.)
  std::function<int(const CepEvent&, const CepEvent&)> by_sequence = [](const CepEvent& a, const CepEvent& b) {
    return a.seq < b.seq ? -1 : (a.seq > b.seq ? 1 : 0);
  };
  CEP::pattern(events, pattern, by_sequence)
      .select([](const Match<CepEvent>& m) { return cepMatchTerm(m); })
      .name(name)
      .addSink(CepMatchSink(tally))
      .name("checksum");
  return executeJob(env, name, options, *tally);
}

inline Pattern<CepEvent> loginPattern() {
  auto fail = [](const CepEvent& e) { return e.type == kLoginFail; };
  return Pattern<CepEvent>::begin("first")
      .where(fail)
      .next("second")
      .where(fail)
      .next("third")
      .where(fail)
      .within(kLoginWindow);
}

inline Pattern<CepEvent> anyPattern(Duration window) {
  return Pattern<CepEvent>::begin("start")
      .where([](const CepEvent& e) { return e.type == kTypeA; })
      .followedByAny("middle")
      .where([](const CepEvent& e) { return e.type == kTypeB; })
      .oneOrMore()
      .followedBy("end")
      .where([](const CepEvent& e) { return e.type == kTypeC; })
      .within(window);
}

inline WorkloadResult runCepLoginWith(const WorkloadOptions& options, const CepLoginParams& params) {
  return runCepJob(
      options, "cep-login", params.users, [params](std::int64_t i) { return loginTypeOf(i, params); },
      loginPattern());
}

inline WorkloadResult runCepAnyWith(const WorkloadOptions& options, const CepAnyParams& params) {
  return runCepJob(
      options, "cep-any", params.keys, [params](std::int64_t i) { return anyTypeOf(i, params); },
      anyPattern(params.window));
}

inline WorkloadResult runCepLogin(const WorkloadOptions& options) { return runCepLoginWith(options, {}); }
inline WorkloadResult runCepAny(const WorkloadOptions& options) { return runCepAnyWith(options, {}); }

}  // namespace tidemark::bench
