// Loading the engine modules (modules.h) with dlopen.
#include "modules.h"

#include <dlfcn.h>
#include <sys/auxv.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "quire/error.h"

namespace quire::detail {

namespace {

// The running binary: /proc/self/exe, else (no /proc in some containers) the path it was
// started by, which execve keeps in the auxiliary vector.
std::filesystem::path running_binary() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return exe;
  const char* started = reinterpret_cast<const char*>(getauxval(AT_EXECFN));
  if (!started || !*started) return {};
  return std::filesystem::absolute(started, ec);
}

// The directories a module may be in, in order.
std::vector<std::filesystem::path> module_dirs() {
  std::vector<std::filesystem::path> dirs;
  const std::filesystem::path exe = running_binary();
  if (!exe.empty()) dirs.push_back((exe.parent_path() / QUIRE_MODULE_DIR_FROM_BINDIR).lexically_normal());
  dirs.emplace_back(QUIRE_MODULE_DIR_BUILT);
  return dirs;
}

struct Loaded {
  void* entry = nullptr;
  std::string failure;
};

Loaded load(const std::string& file, const char* symbol, const std::string& what,
            const std::function<void()>& before_load) {
  std::string tried;
  for (const auto& dir : module_dirs()) {
    const std::string path = (dir / file).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    if (before_load) before_load();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* error = dlerror();
      std::string why = error ? error : "unknown reason";
      if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);
      return {nullptr, "cannot load the " + what + " " + path + ": " + why};
    }
    void* entry = dlsym(handle, symbol);
    if (!entry) return {nullptr, "the " + what + " " + path + " has no " + symbol};
    return {entry, {}};
  }
  return {nullptr, "the " + what + " is not installed (looked for " + tried + ")"};
}

}  // namespace

void* module_entry(const std::string& file, const char* symbol, const std::string& what,
                   const std::function<void()>& before_load) {
  static std::mutex mutex;
  static std::map<std::string, Loaded>* loaded = new std::map<std::string, Loaded>;  // never freed
  std::lock_guard lock(mutex);
  auto it = loaded->find(file);
  if (it == loaded->end()) it = loaded->emplace(file, load(file, symbol, what, before_load)).first;
  if (!it->second.entry) throw Error(ExitCode::Internal, "", 0, it->second.failure);
  return it->second.entry;
}

}  // namespace quire::detail
