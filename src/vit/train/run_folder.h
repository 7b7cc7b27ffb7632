// The files of a training run's folder RUN (vitscope train -o RUN):
//   config              every setting, "name = value" a line
//   log.csv             step,loss,accuracy,train_loss,checkpoint: one row per checkpoint
//   step_NNNNNN/        each checkpoint, a model folder (checkpoint_io.h)
//   samples/            held-out images as PNG, samples.csv (file,label)
#pragma once
#include <string>
#include <vector>

#include "vit/train/trainer.h"

namespace vit::train {

std::string step_folder_name(int step);  // "step_000120"
// "" when `folder` is a run as vitscope train writes it (config and log.csv as
// train writes them, and nothing train does not write, in it or in its
// step_NNNNNN/ and samples/ folders); else why not, e.g. "is not a run of
// vitscope train (it holds notes.txt, which train does not write)". Only such
// a folder is replaced by train --force.
std::string why_not_a_run(const std::string& folder);
std::string log_csv(const std::vector<LogRow>& rows);
// PNG bytes of side x side RGB.
std::string encode_png(const std::vector<uint8_t>& rgb, int side);
// DIR/samples/sample_NNN.png for the first `count` held-out samples and
// DIR/samples/samples.csv (file,label with the class name).
void write_samples(const HeldOut& held_out, const std::vector<std::string>& labels, int count, int side,
                   const std::string& dir);

}  // namespace vit::train
