// vitscope's version, from CMake's project(VERSION) (VITSCOPE_VERSION).
#pragma once

#ifndef VITSCOPE_VERSION
#define VITSCOPE_VERSION "unknown"
#endif

namespace app {

inline const char* version() { return VITSCOPE_VERSION; }

}  // namespace app
