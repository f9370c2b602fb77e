//===- CompileCache.h - compiled programs kept between processes -*- C++ -*-===//
//
/// \file
/// A persistent on-disk cache of JIT-compiled CPU programs. Runner::compile
/// keys a program on everything that decides its machine code (the module
/// after entry preparation, the compile pipeline's options, the LLVM
/// optimization level, the host CPU and its features, the graphopt library
/// build) and stores the object code the JIT produced together with the
/// large constants it addresses by symbol (the weights). A later compile of
/// the same program, in any process, loads that object instead of running
/// the pipeline and LLVM code generation.
///
/// The directory is `$GRAPHOPT_CACHE_DIR`, else `$XDG_CACHE_HOME/graphopt`,
/// else `~/.cache/graphopt`; `GRAPHOPT_CACHE_DIR=off` (or `0`, or empty)
/// disables the cache. `GRAPHOPT_CACHE_MAX_MB` (default 2048) bounds its
/// size: after a store, the least recently used entries are removed. One
/// entry is one file, written to a temporary name and renamed into place,
/// so concurrent writers never expose a partial entry; an entry whose
/// header or checksum does not match is ignored and removed.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_COMPILECACHE_H
#define GRAPHOPT_RUNTIME_COMPILECACHE_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::graphopt::runtime {

/// A named block of constant data the object code refers to by symbol.
struct CachedConstant {
  std::string name;
  llvm::ArrayRef<char> data;
};

/// A cache entry as read back: the object code and the constants, viewing
/// the entry file's buffer.
struct CachedProgram {
  std::unique_ptr<llvm::MemoryBuffer> file;
  llvm::StringRef object;
  std::vector<CachedConstant> constants;
};

class CompileCache {
public:
  /// The cache configured by the environment, or nullopt when it is off.
  static std::optional<CompileCache> fromEnvironment();
  CompileCache(std::string directory, uint64_t maxBytes)
      : dir(std::move(directory)), maxBytes(maxBytes) {}

  /// The key of `module` compiled under `configuration` (every other input
  /// of code generation, as text): 32 hex digits. Large dense constants are
  /// hashed by their raw bytes, the rest of the module by its printed form
  /// (without locations).
  static std::string key(ModuleOp module, llvm::StringRef configuration);

  /// The entry of `key`, or nullopt when there is none. An unreadable or
  /// corrupt entry is removed and reported in `note` (then nullopt).
  std::optional<CachedProgram> lookup(llvm::StringRef key, std::string &note);

  /// Writes the entry of `key` and then trims the cache to its size limit.
  llvm::Error store(llvm::StringRef key, llvm::StringRef object,
                    llvm::ArrayRef<CachedConstant> constants);

  llvm::StringRef directory() const { return dir; }

  /// A new file in the cache directory (created if need be) under a
  /// temporary name that lookups and trims ignore until an hour old: its
  /// open descriptor and path, or why the directory cannot be written.
  llvm::Expected<std::pair<int, std::string>> temporaryFile() const;

  /// The path of `key`'s entry.
  std::string entryPath(llvm::StringRef key) const;

private:
  std::string dir;
  uint64_t maxBytes;
  /// Removes the least recently used entries beyond `maxBytes`.
  void trim() const;
};

/// A text identifying the graphopt library build that runs (its file's
/// path, size and modification time), for cache keys.
std::string libraryBuildId();

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_COMPILECACHE_H
