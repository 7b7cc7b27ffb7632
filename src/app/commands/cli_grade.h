// vitscope exercises --grade KEY.csv HANDIN.csv... [-o GRADES.csv] [--force]:
// every hand-in graded against the answer key (session/homework/handin.h),
// one row per student with per-exercise marks and a total; hand-ins whose
// verification code does not match are flagged (code MISMATCH, and a line on
// standard error naming the file).
#pragma once
#include "app/cli_args.h"

namespace app {

int cmd_grade(const CliArgs& args);

}  // namespace app
