// Pieces every Questions page uses: headings, the what-if banner, the line
// that runs or cancels a long experiment with its progress.
#pragma once
#include <string>

#include "frame.h"
#include "session/experiments.h"

namespace ui {

// "On this photo" / "In general": what the numbers below are evidence of.
void evidence_heading(const Frame& f, const char* text);

// An orange line saying the numbers below are not what the model computes.
void whatif_note(const Frame& f, const char* text);

// A wrapped paragraph in the muted colour.
void note(const char* text);

// The height of a table of `lines` lines of text (header lines included), with
// room for a horizontal scroll bar: a table that scrolls sideways needs its height given.
float table_height(int lines);

// A Run button for an experiment (key, job), its progress bar while it runs
// (with Cancel), and its error if it failed. Returns true when its result is there.
bool experiment_controls(const Frame& f, const char* label, const std::string& key, const session::ExperimentJob& job);

// The key of an experiment on the loaded model and photo: "name#generation".
std::string experiment_key(const Frame& f, const std::string& name);

}  // namespace ui
