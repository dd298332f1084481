// Reading and writing the files the host's authoring commands take and produce (--docs,
// --scaffold).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace luaform {

// Writes `text` to `file`, creating its directory, and names it on `out` ("wrote FILE").
// Returns false after saying why on `err` when it cannot.
bool write_text_file(const std::filesystem::path& file, const std::string& text, std::ostream& out,
                     std::ostream& err);

// Reads `file` whole into `text`, as bytes. Returns false after saying why on `err` when it is
// no readable regular file.
bool read_text_file(const std::filesystem::path& file, std::string& text, std::ostream& err);

}  // namespace luaform
