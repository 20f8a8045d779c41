// The one message for state that cannot be snapshotted because a type in it
// has no TypeSerializer, and how to give it one. Not a template, so that the
// text lives in one place and is compiled once.
#pragma once

#include <string_view>

namespace tidemark::internal {

/// Throws InvalidProgramException: "<what> cannot be snapshotted: its <part>
/// type <type> has no TypeSerializer (...how to give it one)".
/// `what` names the state ("state 'counts'", "window operator 'Window'"),
/// `part` the role of the type in it ("key", "value", "accumulator").
[[noreturn]] void throwUnserializableType(std::string_view what, std::string_view part, std::string_view type);

}  // namespace tidemark::internal
