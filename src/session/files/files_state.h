// The files room: the in-app file browser (File > Open image, Open model,
// Compare with…, Open lesson, the lab's runs, a live exercise's file).
#pragma once
#include <string>

namespace session {

struct BrowserState {
    enum class Mode {
        Closed,
        OpenImage,
        OpenModel,
        OpenCompare,
        OpenLesson,
        OpenRun /* the Learning lab's runs */,
        OpenExercises
    };  // OpenCompare: File > Compare with…; OpenExercises: a live exercise's file
    Mode mode = Mode::Closed;
    std::string dir;  // the folder listed
};

struct FilesRoom {
    BrowserState browser;
};

}  // namespace session
