#include "host/commands/scaffold_command.h"

#include "host/commands/scaffold_templates.h"
#include "host/commands/text_file.h"

#include <cctype>
#include <regex>
#include <system_error>
#include <utility>

namespace luaform {
namespace fs = std::filesystem;

namespace {

// What fills the placeholders of the templates (host/commands/scaffold/): "NAME" stands for the
// provider name, "@UPPER@" for it in upper case (environment variables) and "@DIR@" for the
// directory's absolute path.
struct Fill {
  std::string name;
  std::string dir;
};

std::string filled(std::string text, const Fill& fill) {
  std::string upper = fill.name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // The @...@ placeholders first: "NAME" is inside none of their values' spellings.
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"@UPPER@", upper},
                                   {"@DIR@", fill.dir},
                                   {"NAME", fill.name}}) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
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
  const Fill fill{name, root.string()};
  for (const auto& [relative, text, copied] : scaffold_templates()) {
    const std::string path = copied ? std::string(relative) : filled(std::string(relative), fill);
    if (!write_text_file(root / path, copied ? std::string(text) : filled(std::string(text), fill),
                         out, err)) {
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
