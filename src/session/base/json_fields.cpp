#include "session/base/json_fields.h"

#include <cstdint>

#include "session/base/json_path.h"
#include "vit/base/error.h"
#include "vit/base/untrusted_json.h"

namespace session {

using nlohmann::json;

std::string whole_number_text(const json& v) {
    return v.is_number_unsigned() ? std::to_string(v.get<uint64_t>()) : std::to_string(v.get<int64_t>());
}

bool whole_number_within(const json& v, long long lo, long long hi) {
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        return hi >= 0 && u <= static_cast<uint64_t>(hi) && static_cast<long long>(u) >= lo;
    }
    const long long x = v.get<long long>();
    return x >= lo && x <= hi;
}

void FieldReader::fail(const std::string& what) const { throw vit::Error(name_ + ": " + what); }

const json& FieldReader::field(const char* key) const {
    if (!j_.contains(key)) fail(std::string("no \"") + key + "\"");
    return j_[key];
}

int FieldReader::integer(const char* key, int lo, int hi) const {
    const json& v = field(key);
    if (!v.is_number_integer()) fail(std::string("\"") + key + "\" is not a whole number");
    if (!whole_number_within(v, lo, hi))
        fail(std::string("\"") + key + "\" is " + whole_number_text(v) + ", outside " + std::to_string(lo) + ".." +
             std::to_string(hi));
    return static_cast<int>(v.get<long long>());
}

float FieldReader::number(const char* key, float lo, float hi) const {
    const json& v = field(key);
    if (!v.is_number()) fail(std::string("\"") + key + "\" is not a number");
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi))
        fail(std::string("\"") + key + "\" is outside " + json(lo).dump() + ".." + json(hi).dump());
    return static_cast<float>(x);
}

bool FieldReader::boolean(const char* key) const {
    const json& v = field(key);
    if (!v.is_boolean()) fail(std::string("\"") + key + "\" is not true or false");
    return v.get<bool>();
}

std::string FieldReader::text(const char* key) const {
    const json& v = field(key);
    if (!v.is_string()) fail(std::string("\"") + key + "\" is not a string");
    return v.get<std::string>();
}

std::string FieldReader::path(const char* key) const {
    const auto p = path_from_json(field(key));
    if (!p) fail(std::string("\"") + key + "\" is not a path (a string, or {\"path_bytes\": base64})");
    return *p;
}

std::string FieldReader::one_of(const char* key, std::initializer_list<const char*> names) const {
    const std::string v = text(key);
    for (const char* n : names)
        if (v == n) return v;
    fail(std::string("\"") + key + "\" is \"" + vit::quote_for_error(v) + "\", not one vitscope knows");
}

FieldReader FieldReader::object(const char* key) const {
    const json& v = field(key);
    if (!v.is_object()) fail(std::string("\"") + key + "\" is not an object");
    return FieldReader(v, name_ + " (" + key + ")");
}

}  // namespace session
