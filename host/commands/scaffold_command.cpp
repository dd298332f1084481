#include "host/commands/scaffold_command.h"

#include "host/commands/scaffold_templates.h"
#include "host/commands/text_file.h"

#include <cctype>
#include <regex>
#include <system_error>
#include <vector>

namespace luaform {
namespace fs = std::filesystem;

namespace {

// What fills the placeholders of the templates (host/commands/scaffold/): "NAME" stands for the
// provider name, "@UPPER@" for it in upper case (environment variables), "@DIR@" for the
// directory's absolute path, "@PACKAGER@" for where package_provider.cmake is and "@TYPES@" for
// the directory of the SDK's type definitions (as a JSON string's content).
struct Fill {
  std::string name;
  std::string dir;
  std::string packager;
  std::string types;
};

std::string filled(std::string text, const Fill& fill) {
  std::string upper = fill.name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // The @...@ placeholders first: "NAME" is inside none of their values' spellings.
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"@UPPER@", upper},
                                   {"@DIR@", fill.dir},
                                   {"@PACKAGER@", fill.packager},
                                   {"@TYPES@", fill.types},
                                   {"NAME", fill.name}}) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

// Where a file luaform installs under PREFIX/share/luaform is for the host at `host`: installed
// beside it (PREFIX/bin/luaform), or in the source tree it was built from at `in_sources`; else
// the installed path under /usr, which the README then explains.
std::string installed_near(const fs::path& host, const fs::path& installed,
                           [[maybe_unused]] const fs::path& in_sources) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(host, ec);
  std::vector<fs::path> candidates = {real.parent_path().parent_path() / "share" / "luaform" /
                                      installed};
#if defined(LUAFORM_SOURCE_DIR)
  candidates.push_back(fs::path(LUAFORM_SOURCE_DIR) / in_sources);
#endif
  for (const auto& candidate : candidates) {
    if (fs::exists(candidate, ec)) return candidate.generic_string();
  }
  return (fs::path("/usr/share/luaform") / installed).generic_string();
}

// `text` as the content of a JSON string.
std::string json_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

bool scaffold_provider(const std::string& name, const fs::path& dir, const fs::path& host,
                       std::ostream& out, std::ostream& err) {
  // Provider names become resource prefixes ("NAME_item") and registry addresses.
  if (!std::regex_match(name, std::regex("[a-z][a-z0-9]*"))) {
    err << "error: the provider name must be lowercase letters and digits, starting with a "
           "letter (got \""
        << name << "\")\n";
    return false;
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    err << "error: " << dir.string() << " exists and is not empty; choose a new directory\n";
    return false;
  }
  const fs::path root = fs::absolute(dir, ec);
  const Fill fill{
      name, root.string(),
      installed_near(host, "package_provider.cmake", "host/packaging/package_provider.cmake"),
      json_escaped(installed_near(host, "types", "lua-sdk/types"))};
  for (const auto& [relative, text] : scaffold_templates()) {
    if (!write_text_file(root / filled(std::string(relative), fill),
                         filled(std::string(text), fill), out, err)) {
      return false;
    }
  }
  const fs::path link = root / ("terraform-provider-" + name);
  fs::create_symlink(host, link, ec);
  if (ec) {
    err << "error: cannot link " << link.string() << " to " << host.string() << ": " << ec.message()
        << "\n";
    return false;
  }
  out << "linked " << link.string() << " -> " << host.string() << "\n";
  return true;
}

}  // namespace luaform
