#include "host/lua/modules/document_module.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "host/lua/core/embedded_sdk.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/modules/encoding_module.h"
#include "host/lua/modules/yaml_reader.h"

namespace luaform::lua {
namespace fs = std::filesystem;

namespace {

// A description of a large API is a few MB (GitHub's is about 10); this bound only stops a
// mistaken file from filling the memory before the state's own limit could.
constexpr std::uintmax_t kMaxDocumentBytes = 64U << 20U;

// The file `name` names inside `directory`; throws for a name that leaves it.
fs::path file_inside(const fs::path& directory, const std::string& name) {
  const fs::path relative = fs::path(name).lexically_normal();
  if (name.empty() || relative.is_absolute() || relative.has_root_name() ||
      (!relative.empty() && *relative.begin() == "..")) {
    throw std::runtime_error("luaform_documents.read: " + name +
                             " is not a path inside the provider directory");
  }
  return directory / relative;
}

std::string read_file(const fs::path& file, const std::string& name) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec) throw std::runtime_error(name + ": cannot be read: " + ec.message());
  if (size > kMaxDocumentBytes) {
    throw std::runtime_error(name + ": is larger than 64 MiB, too large for a description");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw std::runtime_error(name + ": cannot be read");
  return text.str();
}

// JSON by the name's extension or, for other names, by the first character that is not space.
bool is_json(const std::string& name, const std::string& text) {
  const std::string extension = fs::path(name).extension().string();
  if (extension == ".json") return true;
  if (extension == ".yaml" || extension == ".yml") return false;
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (text[first] == '{' || text[first] == '[');
}

int read(lua_State* L) {
  const std::string name = luaL_checkstring(L, 1);
  const fs::path directory = lua_tostring(L, lua_upvalueindex(1));
  const std::string text = read_file(file_inside(directory, name), name);
  if (is_json(name, text)) {
    push_json_text(L, name, text);
    return 1;
  }
  nlohmann::json document;
  try {
    document = read_yaml(text);
  } catch (const YamlError& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  push_json_document(L, document);
  return 1;
}

// A SHA-256 being computed: bytes in, lower-case hex out.
class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new()) {
    if (context_ == nullptr || EVP_DigestInit_ex(context_, EVP_sha256(), nullptr) != 1) {
      EVP_MD_CTX_free(context_);
      throw std::runtime_error("the digest could not be computed");
    }
  }
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  ~Sha256() { EVP_MD_CTX_free(context_); }

  void add(std::string_view bytes) {
    if (EVP_DigestUpdate(context_, bytes.data(), bytes.size()) != 1) {
      throw std::runtime_error("the digest could not be computed");
    }
  }
  // Each part preceded by its length, so that no two lists of parts give the same bytes.
  void add_part(std::string_view part) {
    add(std::to_string(part.size()) + ":");
    add(part);
  }
  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_, out.data(), &size) != 1) {
      throw std::runtime_error("the digest could not be computed");
    }
    return lower_hex(out.data(), size);
  }

 private:
  EVP_MD_CTX* context_;
};

// The SHA-256 of the bytes of file `name` in the provider directory, read in blocks (a
// description is tens of MB at most, read here once per start): what a cache of what was made
// from the document is keyed by.
int digest(lua_State* L) {
  const std::string name = luaL_checkstring(L, 1);
  const fs::path directory = lua_tostring(L, lua_upvalueindex(1));
  std::ifstream in(file_inside(directory, name), std::ios::binary);
  if (!in) throw std::runtime_error(name + ": cannot be read");
  Sha256 sha;
  std::array<char, 1U << 16U> block{};
  while (in.read(block.data(), block.size()) || in.gcount() > 0) {
    sha.add({block.data(), static_cast<size_t>(in.gcount())});
  }
  if (in.bad()) throw std::runtime_error(name + ": cannot be read");
  const std::string hex = sha.hex();
  lua_pushlstring(L, hex.data(), hex.size());
  return 1;
}

// The SHA-256 of the SDK modules the provider runs: each module the host carries, or the file
// that takes its place (a module of that name in the provider directory's lua-sdk/ or in the
// directory itself, which require() finds first). Two hosts whose SDKs differ in one byte may
// map one document differently, so nothing one made is taken as the other's.
int sdk_digest(lua_State* L) {
  const fs::path directory = lua_tostring(L, lua_upvalueindex(1));
  Sha256 sha;
  for (const EmbeddedModule& module : embedded_sdk_modules()) {
    sha.add_part(module.name);
    const std::string file_name = std::string(module.name) + ".lua";
    std::error_code ec;
    bool replaced = false;
    for (const fs::path& file : {directory / "lua-sdk" / file_name, directory / file_name}) {
      if (!replaced && fs::is_regular_file(file, ec)) {
        sha.add_part(read_file(file, file_name));
        replaced = true;
      }
    }
    if (!replaced) sha.add_part(module.source);
  }
  const std::string hex = sha.hex();
  lua_pushlstring(L, hex.data(), hex.size());
  return 1;
}

// The provider's Lua sources, by path relative to the directory; hidden folders (.luaform)
// are not entered. Bounded: a provider is tens of scripts, each well under a megabyte.
int scripts(lua_State* L) {
  constexpr int kMaxScripts = 1000;
  constexpr std::uintmax_t kMaxScriptBytes = 4U << 20U;
  const fs::path directory = lua_tostring(L, lua_upvalueindex(1));
  std::error_code ec;
  fs::recursive_directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec);
  lua_newtable(L);
  int count = 0;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    if (it->is_directory(ec) && path.filename().string().starts_with(".")) {
      it.disable_recursion_pending();
      continue;
    }
    if (path.extension() != ".lua" || !it->is_regular_file(ec)) continue;
    if (it->file_size(ec) > kMaxScriptBytes || ++count > kMaxScripts) continue;
    const std::string name = path.lexically_relative(directory).generic_string();
    const std::string text = read_file(path, name);
    lua_pushlstring(L, text.data(), text.size());
    lua_setfield(L, -2, name.c_str());
  }
  return 1;
}

// Every function of the module takes the provider directory as its upvalue.
int open(lua_State* L) {
  const luaL_Reg functions[] = {{"read", guarded<read>},
                                {"scripts", guarded<scripts>},
                                {"digest", guarded<digest>},
                                {"sdk_digest", guarded<sdk_digest>},
                                {nullptr, nullptr}};
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_setfuncs(L, functions, 1);
  return 1;
}

}  // namespace

void push_document_module_opener(lua_State* L, const fs::path& directory) {
  lua_pushstring(L, directory.string().c_str());
  lua_pushcclosure(L, open, 1);
}

}  // namespace luaform::lua
