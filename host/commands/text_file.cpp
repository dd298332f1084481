#include "host/commands/text_file.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace luaform {

bool write_text_file(const std::filesystem::path& file, const std::string& text, std::ostream& out,
                     std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream stream(file, std::ios::binary | std::ios::trunc);
  stream << text;
  stream.close();
  if (ec || !stream) {
    err << "error: cannot write " << file.string() << (ec ? ": " + ec.message() : std::string())
        << "\n";
    return false;
  }
  out << "wrote " << file.string() << "\n";
  return true;
}

bool read_text_file(const std::filesystem::path& file, std::string& text, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    err << "error: " << file.string() << " is not a file that can be read\n";
    return false;
  }
  std::ifstream stream(file, std::ios::binary);
  std::ostringstream read;
  read << stream.rdbuf();
  if (!stream) {
    err << "error: cannot read " << file.string() << "\n";
    return false;
  }
  text = read.str();
  return true;
}

}  // namespace luaform
