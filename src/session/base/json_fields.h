// Reading a file's JSON fields checked: each wrong field is one vit::Error
// naming the file (or the part of it) and the field, as written ("lesson.vitscope:
// \"layer\" is 4096, outside 0..1023"). Lessons and the selection they hold
// read through it.
#pragma once
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace session {

// A whole number as written: one above 2^63 is unsigned in the JSON library,
// and read as a signed one it would wrap (18446744073709551615 to -1).
std::string whole_number_text(const nlohmann::json& v);
bool whole_number_within(const nlohmann::json& v, long long lo, long long hi);

class FieldReader {
public:
    // Keeps a reference to `j`: the reader lives no longer than it.
    FieldReader(const nlohmann::json& j, std::string name) : j_(j), name_(std::move(name)) {}

    [[noreturn]] void fail(const std::string& what) const;

    const nlohmann::json& field(const char* key) const;  // present, else fails
    int integer(const char* key, int lo, int hi) const;
    float number(const char* key, float lo, float hi) const;
    bool boolean(const char* key) const;
    std::string text(const char* key) const;
    std::string path(const char* key) const;  // json_path.h's form
    std::string one_of(const char* key, std::initializer_list<const char*> names) const;
    FieldReader object(const char* key) const;  // its errors name "FILE (key)"

private:
    const nlohmann::json& j_;
    std::string name_;
};

}  // namespace session
