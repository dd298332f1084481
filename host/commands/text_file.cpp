#include "host/commands/text_file.h"

#include <fstream>
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

}  // namespace luaform
