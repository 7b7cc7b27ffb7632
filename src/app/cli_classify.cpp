// vitscope classify IMAGE [--model DIR] [--top K]: rank<TAB>probability<TAB>label.
#include <cstdio>
#include <vector>

#include "commands.h"
#include "pipeline.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {

int cmd_classify(const CliArgs& args) {
    const int top = args.get_int_opt("--top", 1, 100000).value_or(5);
    vit::TraceOptions plain{false, false, false};
    Pipeline p = run_pipeline(args, plain);
    if (p.trace.logits.size() == 0) throw vit::Error("this model has no classifier head");
    const std::vector<vit::ClassScore> best = vit::top_classes(p.model, p.trace, top);
    for (size_t rank = 0; rank < best.size(); ++rank)
        std::printf("%zu\t%.6f\t%s\n", rank + 1, best[rank].probability, best[rank].label.c_str());
    return 0;
}

}  // namespace app
