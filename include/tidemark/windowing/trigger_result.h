// What a trigger decides for a window at each callback (docs/semantics.md 4.7).
#pragma once

#include <string_view>

namespace tidemark {

enum class TriggerResult {
  /// Do nothing.
  CONTINUE,
  /// Emit the window's result and keep its contents.
  FIRE,
  /// Drop the window's contents without emitting.
  PURGE,
  /// Emit the window's result, then drop its contents.
  FIRE_AND_PURGE,
};

constexpr bool isFire(TriggerResult r) { return r == TriggerResult::FIRE || r == TriggerResult::FIRE_AND_PURGE; }
constexpr bool isPurge(TriggerResult r) { return r == TriggerResult::PURGE || r == TriggerResult::FIRE_AND_PURGE; }

constexpr std::string_view triggerResultName(TriggerResult r) {
  switch (r) {
    case TriggerResult::CONTINUE:
      return "CONTINUE";
    case TriggerResult::FIRE:
      return "FIRE";
    case TriggerResult::PURGE:
      return "PURGE";
    case TriggerResult::FIRE_AND_PURGE:
      return "FIRE_AND_PURGE";
  }
  return "?";
}

}  // namespace tidemark
