#include "host/commands/scaffold_command.h"

#include "host/commands/scaffold_templates.h"
#include "host/commands/text_file.h"

#include <cctype>
#include <optional>
#include <regex>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace luaform {
namespace fs = std::filesystem;

namespace {

// The templates of a provider served from a description live under this directory, and are
// written without it; the scaffold of scripts leaves them out.
constexpr std::string_view kDescribedDir = ".openapi/";

// Where template `path` goes in a scaffold (`described`: one from a description), or nullopt
// when that scaffold has no such file. A described one takes its own templates and the
// dotfiles (editor, lint and ignore files, .luaform/), none of the example scripts.
std::optional<std::string> destination(std::string_view path, bool described) {
  if (path.starts_with(kDescribedDir)) {
    if (!described) return std::nullopt;
    return std::string(path.substr(kDescribedDir.size()));
  }
  if (described && !path.starts_with(".")) return std::nullopt;
  return std::string(path);
}

// The files `text` (a description, JSON or YAML) names in its `$ref`s, as written: the part
// before '#' of each reference to another file ("common.yaml#/Pet" names common.yaml), none
// for a reference inside the same file or on the web.
std::vector<std::string> referenced_files(const std::string& text) {
  std::vector<std::string> files;
  constexpr std::string_view kRef = "$ref";
  for (size_t at = text.find(kRef); at != std::string::npos; at = text.find(kRef, at + 1)) {
    size_t i = at + kRef.size();
    auto skip = [&](std::string_view chars) {
      while (i < text.size() && chars.find(text[i]) != std::string_view::npos) ++i;
    };
    skip("\"'");
    skip(" \t");
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    skip(" \t");
    skip("\"'");
    const size_t start = i;
    while (i < text.size() &&
           std::string_view("\"'#, \t\r\n}]").find(text[i]) == std::string_view::npos) {
      ++i;
    }
    const std::string file = text.substr(start, i - start);
    if (!file.empty() && file.find("://") == std::string::npos) files.push_back(file);
  }
  return files;
}

// Copies into `root` the files beside `description` that its `$ref`s name, and the files
// theirs name, at the same places relative to it. One outside the description's directory, or
// missing, is left for --check to name.
bool copy_referenced_files(const fs::path& description, const std::string& text,
                           const fs::path& root, std::ostream& out, std::ostream& err) {
  const fs::path source = description.parent_path();
  std::set<fs::path> copied{fs::path(description.filename())};
  std::vector<std::pair<fs::path, std::string>> pending{{description.filename(), text}};
  while (!pending.empty()) {
    const auto [from, from_text] = std::move(pending.back());
    pending.pop_back();
    for (const std::string& name : referenced_files(from_text)) {
      const fs::path relative = (from.parent_path() / name).lexically_normal();
      if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") continue;
      std::error_code ec;
      if (copied.contains(relative) || !fs::is_regular_file(source / relative, ec)) continue;
      copied.insert(relative);
      std::string referenced;
      if (!read_text_file(source / relative, referenced, err) ||
          !write_text_file(root / relative, referenced, out, err)) {
        return false;
      }
      pending.emplace_back(relative, std::move(referenced));
    }
  }
  return true;
}

// A template with its placeholders filled: "NAME" stands for the provider name, "@UPPER@" for it
// in upper case (environment variables), "@DOCUMENT@" for the description's file name. Nothing
// in a scaffold names where it was written, nor where luaform is: the directory may be moved,
// or committed and cloned elsewhere.
std::string filled(std::string text, const std::string& name, const std::string& document) {
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // "@UPPER@" and "@DOCUMENT@" first: "NAME" is not inside their spelling.
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"@UPPER@", upper},
                                   {"@DOCUMENT@", document},
                                   {"NAME", name}}) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

}  // namespace

bool scaffold_provider(const std::string& name, const fs::path& dir, const fs::path& host,
                       std::ostream& out, std::ostream& err, const fs::path& description) {
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
  const bool described = !description.empty();
  std::string document;
  std::string document_text;
  if (described) {
    document = description.filename().string();
    // Read before anything is written: a wrong path leaves no half-made directory.
    if (!read_text_file(description, document_text, err)) return false;
  }
  const fs::path root = fs::absolute(dir, ec);
  for (const auto& [relative, text, copied] : scaffold_templates()) {
    const auto path = destination(relative, described);
    if (!path) continue;
    const std::string target = copied ? *path : filled(*path, name, document);
    if (!write_text_file(root / target,
                         copied ? std::string(text) : filled(std::string(text), name, document),
                         out, err)) {
      return false;
    }
  }
  if (described && (!write_text_file(root / document, document_text, out, err) ||
                    !copy_referenced_files(description, document_text, root, out, err))) {
    return false;
  }
  // A copy of the host, not a link: a link into a build tree breaks once the directory is
  // cloned elsewhere, or the tree is cleaned. The scaffold's .gitignore leaves it out of git.
  const std::string exe = host.extension() == ".exe" ? ".exe" : "";
  const fs::path copy = root / ("terraform-provider-" + name + exe);
  fs::copy_file(host, copy, ec);
  if (ec) {
    err << "error: cannot copy " << host.string() << " to " << copy.string() << ": " << ec.message()
        << "\n";
    return false;
  }
  out << "copied " << host.string() << " to " << copy.string() << "\n";
  return true;
}

}  // namespace luaform
