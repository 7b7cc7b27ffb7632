// vitscope classify IMAGE [--model DIR] [--top K]: rank<TAB>probability<TAB>label.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "commands.h"
#include "pipeline.h"
#include "vit/error.h"

namespace app {

int cmd_classify(const CliArgs& args) {
    const int top_requested = args.get_int_opt("--top", 1, 100000).value_or(5);
    vit::TraceOptions plain{false, false, false};
    Pipeline p = run_pipeline(args, plain);
    if (p.trace.logits.size() == 0) throw vit::Error("this model has no classifier head");
    const vit::Vec prob = probabilities(p.trace.logits);
    std::vector<int> order(prob.size());
    std::iota(order.begin(), order.end(), 0);
    const int top = std::min<int>(top_requested, static_cast<int>(order.size()));
    std::partial_sort(order.begin(), order.begin() + top, order.end(),
                      [&](int a, int b) { return prob[a] > prob[b]; });
    for (int r = 0; r < top; ++r)
        std::printf("%d\t%.6f\t%s\n", r + 1, prob[order[r]], label_of(p.model, order[r]).c_str());
    return 0;
}

}  // namespace app
