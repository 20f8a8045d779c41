// Complex event processing: everything a CEP job needs (Pattern, CEP::pattern,
// PatternStream, PatternProcessFunction, Match, AfterMatchSkipStrategy).
#pragma once

#include "tidemark/cep/after_match_skip_strategy.h"
#include "tidemark/cep/iterative_condition.h"
#include "tidemark/cep/match.h"
#include "tidemark/cep/pattern.h"
#include "tidemark/cep/pattern_process_function.h"
#include "tidemark/cep/pattern_stream.h"
