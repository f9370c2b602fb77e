//===- CompileCache.cpp - compiled programs kept between processes -------===//
//
// An entry file:
//
//   "GOPTCC02"  u64 checksum  u64 constant count  u64 object size
//   per constant: u64 name size, name, u64 data size, zeros to a 64-byte
//                 boundary, data
//   the object code (Runner.cpp frames the program's objects in it: u64
//   count, u64 size of each, their bytes)
//
// The checksum is xxh3 over the xxh3 of each constant (name and data) and
// of the object, in order: a truncated or overwritten entry fails it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Runtime/CompileCache.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/time.h>

using namespace mlir;
using namespace mlir::graphopt::runtime;

static constexpr char kMagic[8] = {'G', 'O', 'P', 'T', 'C', 'C', '0', '2'};
static constexpr size_t kAlign = 64;
static constexpr char kSuffix[] = ".gobj";

std::optional<CompileCache> CompileCache::fromEnvironment() {
  std::string dir;
  if (const char *env = std::getenv("GRAPHOPT_CACHE_DIR")) {
    StringRef v(env);
    if (v.empty() || v == "off" || v == "0" || v == "OFF")
      return std::nullopt;
    dir = v.str();
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    dir = (StringRef(xdg) + "/graphopt").str();
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    dir = (StringRef(home) + "/.cache/graphopt").str();
  } else {
    return std::nullopt;
  }
  uint64_t maxMB = 2048;
  if (const char *env = std::getenv("GRAPHOPT_CACHE_MAX_MB")) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    if (end && *end == 0 && end != env)
      maxMB = v;
  }
  return CompileCache(std::move(dir), maxMB << 20);
}

std::string mlir::graphopt::runtime::libraryBuildId() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&libraryBuildId), &info) ||
      !info.dli_fname)
    return "unknown";
  struct stat st;
  if (stat(info.dli_fname, &st) != 0)
    return info.dli_fname;
  return (llvm::Twine(info.dli_fname) + ":" + llvm::Twine(st.st_size) + ":" +
          llvm::Twine(static_cast<int64_t>(st.st_mtim.tv_sec)) + "." +
          llvm::Twine(static_cast<int64_t>(st.st_mtim.tv_nsec)))
      .str();
}

namespace {
void appendU64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void appendHash(std::vector<uint8_t> &out, llvm::ArrayRef<uint8_t> bytes) {
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(bytes);
  appendU64(out, h.low64);
  appendU64(out, h.high64);
}

llvm::ArrayRef<uint8_t> bytesOf(llvm::StringRef s) {
  return llvm::ArrayRef(s.bytes_begin(), s.size());
}

llvm::ArrayRef<uint8_t> bytesOf(llvm::ArrayRef<char> s) {
  return llvm::ArrayRef(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

/// The checksum of an entry's pieces (see the file comment).
uint64_t checksum(llvm::ArrayRef<CachedConstant> constants,
                  llvm::StringRef object) {
  std::vector<uint8_t> hashes;
  for (const CachedConstant &c : constants) {
    appendU64(hashes, llvm::xxh3_64bits(bytesOf(llvm::StringRef(c.name))));
    appendU64(hashes, llvm::xxh3_64bits(bytesOf(c.data)));
  }
  appendU64(hashes, llvm::xxh3_64bits(bytesOf(object)));
  return llvm::xxh3_64bits(hashes);
}

uint64_t readU64(const char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

void writeU64(llvm::raw_ostream &os, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = static_cast<char>(v >> (8 * i));
  os.write(b, 8);
}
} // namespace

std::string CompileCache::key(ModuleOp module, StringRef configuration) {
  std::vector<uint8_t> hashes;
  appendHash(hashes, bytesOf(configuration));
  // The module without large constants' contents and without locations.
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    flags.elideLargeElementsAttrs(16);
    flags.elideLargeResourceString(16);
    flags.enableDebugInfo(false);
    // The module's attributes and ops, not the module op itself: printing
    // a top-level op also writes the data of the dense_resource constants
    // it refers to, as hex (ResNet-50's 100 MB of weights: 0.35 s).
    module->getAttrDictionary().print(os);
    for (Operation &op : module.getBody()->getOperations())
      op.print(os, flags);
  }
  appendHash(hashes, bytesOf(StringRef(text)));
  // Every dense constant's bytes, in walk order.
  module->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](Attribute attr) {
      if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
        appendU64(hashes, dense.isSplat());
        appendHash(hashes, bytesOf(dense.getRawData()));
      } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
        if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
          appendHash(hashes, bytesOf(blob->getData()));
        else
          appendU64(hashes, 0);
      }
    });
  });
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(hashes);
  std::string hex;
  llvm::raw_string_ostream os(hex);
  os << llvm::format_hex_no_prefix(h.high64, 16)
     << llvm::format_hex_no_prefix(h.low64, 16);
  return hex;
}

std::string CompileCache::entryPath(StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + kSuffix);
  return path.str().str();
}

std::optional<CachedProgram> CompileCache::lookup(StringRef key,
                                                  std::string &note) {
  std::string path = entryPath(key);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  auto corrupt = [&](StringRef why) -> std::optional<CachedProgram> {
    note = ("ignoring the compile cache entry " + path + " (" + why +
            ") and removing it")
               .str();
    llvm::sys::fs::remove(path);
    return std::nullopt;
  };
  if (!file)
    return corrupt(file.getError().message());
  StringRef all = (*file)->getBuffer();
  if (all.size() < 32 || std::memcmp(all.data(), kMagic, 8) != 0)
    return corrupt("not an entry of this graphopt version");
  uint64_t sum = readU64(all.data() + 8), count = readU64(all.data() + 16),
           objectSize = readU64(all.data() + 24);
  size_t pos = 32;
  CachedProgram program;
  for (uint64_t i = 0; i < count; ++i) {
    if (pos + 8 > all.size())
      return corrupt("truncated");
    uint64_t nameSize = readU64(all.data() + pos);
    pos += 8;
    if (nameSize > all.size() - pos || pos + nameSize + 8 > all.size())
      return corrupt("truncated");
    std::string name = all.substr(pos, nameSize).str();
    pos += nameSize;
    uint64_t dataSize = readU64(all.data() + pos);
    pos += 8;
    pos = (pos + kAlign - 1) / kAlign * kAlign;
    if (pos > all.size() || dataSize > all.size() - pos)
      return corrupt("truncated");
    program.constants.push_back(
        {std::move(name), llvm::ArrayRef<char>(all.data() + pos, dataSize)});
    pos += dataSize;
  }
  if (pos > all.size() || all.size() - pos != objectSize)
    return corrupt("truncated");
  program.object = all.substr(pos, objectSize);
  if (checksum(program.constants, program.object) != sum)
    return corrupt("checksum mismatch");
  // Used now: the least recently used entries are trimmed first.
  (void)utimes(path.c_str(), nullptr);
  program.file = std::move(*file);
  return program;
}

llvm::Expected<std::pair<int, std::string>>
CompileCache::temporaryFile() const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create the compile cache "
                                   "directory %s: %s",
                                   dir.c_str(), ec.message().c_str());
  int fd;
  llvm::SmallString<256> temp;
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, "tmp-%%%%%%%%%%%%.part");
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return llvm::createStringError("cannot write to the compile cache "
                                   "directory %s: %s",
                                   dir.c_str(), ec.message().c_str());
  return std::make_pair(fd, temp.str().str());
}

llvm::Error CompileCache::store(StringRef key, StringRef object,
                                llvm::ArrayRef<CachedConstant> constants) {
  auto file = temporaryFile();
  if (!file)
    return file.takeError();
  auto [fd, temp] = std::move(*file);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(kMagic, 8);
    writeU64(os, checksum(constants, object));
    writeU64(os, constants.size());
    writeU64(os, object.size());
    uint64_t pos = 32;
    static const char zeros[kAlign] = {};
    for (const CachedConstant &c : constants) {
      writeU64(os, c.name.size());
      os << c.name;
      writeU64(os, c.data.size());
      pos += 16 + c.name.size();
      uint64_t pad = (kAlign - pos % kAlign) % kAlign;
      os.write(zeros, pad);
      pos += pad;
      os.write(c.data.data(), c.data.size());
      pos += c.data.size();
    }
    os << object;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return llvm::createStringError("cannot write the compile cache entry "
                                     "%s: %s",
                                     temp.c_str(), why.c_str());
    }
  }
  std::string path = entryPath(key);
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return llvm::createStringError("cannot write the compile cache entry "
                                   "%s: %s",
                                   path.c_str(), ec.message().c_str());
  }
  trim();
  return llvm::Error::success();
}

void CompileCache::trim() const {
  struct Entry {
    std::string path;
    uint64_t size;
    std::chrono::system_clock::time_point used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    llvm::sys::fs::file_status st;
    if (llvm::sys::fs::status(it->path(), st))
      continue;
    auto used = st.getLastModificationTime();
    // A writer's temporary file left behind by a crash.
    if (name.starts_with("tmp-") && name.ends_with(".part")) {
      if (now - used > std::chrono::hours(1))
        llvm::sys::fs::remove(it->path());
      continue;
    }
    if (!name.ends_with(kSuffix))
      continue;
    entries.push_back({it->path(), st.getSize(), used});
    total += st.getSize();
  }
  if (total <= maxBytes)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &e : entries) {
    if (total <= maxBytes)
      break;
    if (!llvm::sys::fs::remove(e.path))
      total -= e.size;
  }
}
