//===- AOTHeader.cpp - C header for an ahead-of-time object ---------------===//
//
// Writes the header described in AOTHeader.h. The checks repeat, in C, what
// checkInputs does before every JIT call (Runner.cpp), with the same
// messages, plus what a caller of raw descriptors can get wrong that a
// HostTensor cannot: a negative size, a null buffer, an offset, strides that
// are not row-major contiguous (the compiled code addresses its inputs from
// `aligned` with the row-major strides of their sizes).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Runtime/AOTHeader.h"
#include "graphopt/Runtime/Runner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::graphopt::runtime;

namespace {

/// The C type of one element as the compiled code stores it.
const char *cElementType(DType t) {
  switch (t) {
  case DType::F32:
    return "float";
  case DType::F16:
  case DType::BF16:
    return "uint16_t"; // the bits of the half-precision value
  case DType::I1:
    return "uint8_t"; // one byte per element, 0 or 1
  case DType::I32:
    return "int32_t";
  case DType::I64:
    return "int64_t";
  case DType::F64:
    return "double";
  case DType::I8:
    return "int8_t";
  case DType::I16:
    return "int16_t";
  case DType::U8:
    return "uint8_t";
  case DType::U16:
    return "uint16_t";
  case DType::U32:
    return "uint32_t";
  case DType::U64:
    return "uint64_t";
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return "uint8_t"; // the bits of the 8-bit float
  }
  return nullptr;
}

bool isCIdentifier(llvm::StringRef s) {
  if (s.empty() || llvm::isDigit(s.front()))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// `s` as the body of a C string literal (an argument, never a format).
std::string cString(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

/// A descriptor struct: {T *allocated, *aligned; int64_t offset, sizes[r],
/// strides[r]} (rank 0: no sizes or strides).
void writeDescriptor(llvm::raw_ostream &os, llvm::StringRef name,
                     const TensorSignature &t, llvm::StringRef role) {
  os << "/* " << role << ": " << t.str() << " */\n"
     << "typedef struct " << name << " {\n"
     << "  " << cElementType(t.dtype) << " *allocated;\n"
     << "  " << cElementType(t.dtype) << " *aligned;\n"
     << "  int64_t offset;\n";
  if (!t.shape.empty())
    os << "  int64_t sizes[" << t.shape.size() << "];\n"
       << "  int64_t strides[" << t.shape.size() << "];\n";
  os << "} " << name << ";\n\n";
}

const char *kCommon = R"C(#ifndef GRAPHOPT_AOT_COMMON_
#define GRAPHOPT_AOT_COMMON_
/* Status of every function below: OK, or an error with a message. */
enum {
  GRAPHOPT_AOT_OK = 0,
  GRAPHOPT_AOT_BAD_INPUT = 1,   /* an input, or an argument, is not valid */
  GRAPHOPT_AOT_BAD_WEIGHTS = 2, /* the weights file is missing or wrong */
  GRAPHOPT_AOT_NO_MEMORY = 3    /* an allocation of the context failed */
};

/* Element types: the codes of graphopt's C API (graphopt-c/GraphOpt.h). */
enum {
  GRAPHOPT_AOT_F32 = 0, GRAPHOPT_AOT_F16 = 1, GRAPHOPT_AOT_BF16 = 2,
  GRAPHOPT_AOT_I1 = 3, GRAPHOPT_AOT_I32 = 4, GRAPHOPT_AOT_I64 = 5,
  GRAPHOPT_AOT_F64 = 6, GRAPHOPT_AOT_I8 = 7, GRAPHOPT_AOT_I16 = 8,
  GRAPHOPT_AOT_U8 = 9, GRAPHOPT_AOT_U16 = 10, GRAPHOPT_AOT_U32 = 11,
  GRAPHOPT_AOT_U64 = 12, GRAPHOPT_AOT_F8E4M3FN = 13, GRAPHOPT_AOT_F8E5M2 = 14,
  GRAPHOPT_AOT_F8E4M3FNUZ = 15, GRAPHOPT_AOT_F8E5M2FNUZ = 16
};

/* A dense tensor: `rank` sizes in `shape` (NULL for rank 0), the elements
   contiguous and row-major at `data` (f16/bf16 as their 16-bit patterns,
   i1 as one byte 0 or 1). */
typedef struct graphopt_aot_tensor {
  int32_t dtype;
  int32_t rank;
  const int64_t *shape;
  void *data;
} graphopt_aot_tensor;

static inline const char *graphopt_aot_dtype_name_(int32_t dtype) {
  static const char *const names[] = {"f32", "f16",  "bf16", "i1",   "i32",
                                      "i64", "f64",  "i8",   "i16",  "ui8",
                                      "ui16", "ui32", "ui64"};
  return dtype >= 0 && dtype <= 12 ? names[dtype] : "unknown";
}

static inline int graphopt_aot_vstatus_(int status, char *msg, size_t size,
                                        const char *fmt, va_list args) {
  if (msg && size)
    vsnprintf(msg, size, fmt, args);
  return status;
}

static inline int graphopt_aot_status_(int status, char *msg, size_t size,
                                       const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  graphopt_aot_vstatus_(status, msg, size, fmt, args);
  va_end(args);
  return status;
}

static inline int graphopt_aot_error_(char *msg, size_t size, const char *fmt,
                                      ...) {
  va_list args;
  va_start(args, fmt);
  graphopt_aot_vstatus_(GRAPHOPT_AOT_BAD_INPUT, msg, size, fmt, args);
  va_end(args);
  return GRAPHOPT_AOT_BAD_INPUT;
}

/* 0, or GRAPHOPT_AOT_BAD_INPUT with a message: one input descriptor against
   the static dims of its type (dims < 0 in `want` are dynamic). */
static inline int graphopt_aot_check_input_(
    const char *entry, int index, const char *type, const void *aligned,
    int64_t offset, int64_t rank, const int64_t *sizes,
    const int64_t *strides, const int64_t *want, int64_t alignment,
    char *msg, size_t size) {
  int64_t d, elements = 1, expect = 1;
  int empty = 0;
  for (d = 0; d < rank; ++d) {
    if (sizes[d] < 0)
      return graphopt_aot_error_(msg, size,
                                 "input %d of @%s: dim %lld is %lld, a size "
                                 "must be >= 0 (%s)",
                                 index, entry, (long long)d,
                                 (long long)sizes[d], type);
    if (want[d] >= 0 && sizes[d] != want[d])
      return graphopt_aot_error_(msg, size,
                                 "input %d of @%s: dim %lld is %lld, "
                                 "expected %lld (%s)",
                                 index, entry, (long long)d,
                                 (long long)sizes[d], (long long)want[d], type);
    if (sizes[d] == 0)
      empty = 1;
    else if (elements > INT64_MAX / sizes[d])
      elements = -1; /* more elements than an int64_t counts */
    else if (elements > 0)
      elements *= sizes[d];
  }
  if (empty)
    return GRAPHOPT_AOT_OK;
  if (elements < 0)
    return graphopt_aot_error_(msg, size,
                               "input %d of @%s: its sizes multiply to more "
                               "than 2^63 - 1 elements (%s)",
                               index, entry, type);
  if (!aligned)
    return graphopt_aot_error_(msg, size,
                               "input %d of @%s: the buffer (aligned) is "
                               "NULL (%s)",
                               index, entry, type);
  if (alignment > 1 && (uintptr_t)aligned % (uintptr_t)alignment != 0)
    return graphopt_aot_error_(msg, size,
                               "input %d of @%s: the device buffer %p is not "
                               "%lld-byte aligned (the kernels read inputs "
                               "with vector loads): copy it to a buffer from "
                               "graphoptCudaMalloc (%s)",
                               index, entry, aligned, (long long)alignment,
                               type);
  if (offset != 0)
    return graphopt_aot_error_(msg, size,
                               "input %d of @%s: offset is %lld; the compiled "
                               "code reads from aligned: pass aligned + "
                               "offset and offset 0",
                               index, entry, (long long)offset);
  for (d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expect)
      return graphopt_aot_error_(msg, size,
                                 "input %d of @%s: dim %lld has stride %lld, "
                                 "expected %lld: inputs must be contiguous "
                                 "and row-major (%s)",
                                 index, entry, (long long)d,
                                 (long long)strides[d], (long long)expect,
                                 type);
    expect *= sizes[d];
  }
  return GRAPHOPT_AOT_OK;
}

/* Copies a strided array (sizes and strides in elements) to `dst`,
   row-major; returns the end of what it wrote. */
static inline char *graphopt_aot_copy_strided_(char *dst, const char *src,
                                               int64_t rank,
                                               const int64_t *sizes,
                                               const int64_t *strides,
                                               size_t elem) {
  int64_t i;
  if (rank == 0) {
    memcpy(dst, src, elem);
    return dst + elem;
  }
  for (i = 0; i < sizes[0]; ++i)
    dst = graphopt_aot_copy_strided_(dst, src + i * strides[0] * (int64_t)elem,
                                     rank - 1, sizes + 1, strides + 1, elem);
  return dst;
}

/* The checksum of a weights file's data: the same sum graph-run computed
   when it wrote the file (64-bit words, each mixed with its index). */
static inline uint64_t graphopt_aot_checksum_(const unsigned char *data,
                                              uint64_t bytes) {
  uint64_t h = 0, i, w, t;
  for (i = 0; i < bytes / 8; ++i) {
    memcpy(&w, data + 8 * i, 8);
    t = (w ^ (i * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    h += t ^ (t >> 31);
  }
  return h;
}

/* Gives back what graphopt_aot_map_weights_ took for a file it refuses: the
   mapping, or where there is no mmap the buffer it read the file into. */
static inline void graphopt_aot_unmap_weights_(unsigned char *base,
                                              long long file_size,
                                              void *buffer) {
#if defined(__unix__) || defined(__APPLE__)
  (void)buffer;
  munmap(base, (size_t)file_size);
#else
  (void)base;
  (void)file_size;
  free(buffer);
#endif
}

/* Maps the weights file at `path` read-only (reads it where there is no
   mmap) and checks its size, header and checksum against the object's;
   `*data` is its data, kept until the process exits. */
static inline int graphopt_aot_map_weights_(const char *entry,
                                            const char *path,
                                            uint64_t want_bytes,
                                            uint64_t want_checksum,
                                            const void **data, char *msg,
                                            size_t size) {
  unsigned char *base = NULL;
  void *buffer = NULL; /* without mmap: the file's copy */
  uint64_t fields[3], sum;
  long long file_size;
  if (!path)
    return graphopt_aot_status_(
        GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
        "@%s keeps its weights in a file of their own (%llu bytes, written "
        "with the object by --emit-weights): give its path",
        entry, (unsigned long long)want_bytes);
#if defined(__unix__) || defined(__APPLE__)
  {
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
      return graphopt_aot_status_(GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
                                  "cannot open the weights file %s: %s", path,
                                  strerror(errno));
    if (fstat(fd, &st) != 0) {
      close(fd);
      return graphopt_aot_status_(GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
                                  "cannot read the weights file %s: %s", path,
                                  strerror(errno));
    }
    file_size = (long long)st.st_size;
    if ((uint64_t)file_size != 64 + want_bytes) {
      close(fd);
      return graphopt_aot_status_(
          GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
          "the weights file %s has %lld bytes; @%s needs %llu (a 64-byte "
          "header and %llu of data): not the file written with this object",
          path, file_size, entry, (unsigned long long)(64 + want_bytes),
          (unsigned long long)want_bytes);
    }
    base = (unsigned char *)mmap(NULL, (size_t)file_size, PROT_READ,
                                 MAP_PRIVATE, fd, 0);
    close(fd);
    if ((void *)base == MAP_FAILED)
      return graphopt_aot_status_(GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
                                  "cannot map the weights file %s: %s", path,
                                  strerror(errno));
  }
#else
  {
    FILE *f = fopen(path, "rb");
    unsigned char *raw;
    if (!f)
      return graphopt_aot_status_(GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
                                  "cannot open the weights file %s", path);
    fseek(f, 0, SEEK_END);
    file_size = (long long)ftell(f);
    fseek(f, 0, SEEK_SET);
    if ((uint64_t)file_size != 64 + want_bytes) {
      fclose(f);
      return graphopt_aot_status_(
          GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
          "the weights file %s has %lld bytes; @%s needs %llu", path,
          file_size, entry, (unsigned long long)(64 + want_bytes));
    }
    raw = (unsigned char *)malloc((size_t)file_size + 64);
    if (!raw) {
      fclose(f);
      return graphopt_aot_status_(GRAPHOPT_AOT_NO_MEMORY, msg, size,
                                  "out of memory reading %s", path);
    }
    buffer = raw;
    base = raw + (64 - (uintptr_t)raw % 64) % 64;
    if (fread(base, 1, (size_t)file_size, f) != (size_t)file_size) {
      fclose(f);
      free(raw);
      return graphopt_aot_status_(GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
                                  "cannot read the weights file %s", path);
    }
    fclose(f);
  }
#endif
  memcpy(fields, base + 8, sizeof fields);
  if (memcmp(base, "GOWGHT01", 8) != 0 || fields[0] != want_bytes ||
      fields[1] != want_checksum) {
    graphopt_aot_unmap_weights_(base, file_size, buffer);
    return graphopt_aot_status_(
        GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
        "%s is not the weights file of this object of @%s (its header "
        "differs: written for another model or another compile)",
        path, entry);
  }
  sum = graphopt_aot_checksum_(base + 64, want_bytes);
  if (sum != want_checksum) {
    graphopt_aot_unmap_weights_(base, file_size, buffer);
    return graphopt_aot_status_(
        GRAPHOPT_AOT_BAD_WEIGHTS, msg, size,
        "the weights file %s is corrupt: the checksum of its data is "
        "0x%016llx, expected 0x%016llx",
        path, (unsigned long long)sum, (unsigned long long)want_checksum);
  }
  *data = base + 64;
  return GRAPHOPT_AOT_OK;
}
#endif /* GRAPHOPT_AOT_COMMON_ */

)C";

/// The DType's code in graphopt_aot_tensor (the C API's, graphopt-c).
int dtypeCode(DType t) { return static_cast<int>(t); }

/// The context API of a CPU object (docs/AOT.md, "The context API"): the
/// weights' load, and create / run / error / destroy over
/// graphopt_aot_tensor, the results owned by the context.
void writeContextAPI(llvm::raw_ostream &os, const EntrySignature &sig,
                     llvm::StringRef prefix, llvm::StringRef resultType,
                     const AOTWeights *weights) {
  const std::string &entry = sig.name;
  std::string upper = llvm::StringRef(prefix).upper();
  size_t numIn = sig.inputs.size(), numOut = sig.outputs.size();
  auto in = [](size_t i) { return "in" + std::to_string(i); };
  // The descriptor of result k inside the context.
  auto res = [&](size_t k) {
    return numOut == 1 ? std::string("c->results")
                       : "c->results.r" + std::to_string(k);
  };

  // The weights.
  os << "#define " << upper << "_NUM_INPUTS " << numIn << "\n"
     << "#define " << upper << "_NUM_OUTPUTS " << numOut << "\n\n";
  os << "/* ---- Weights ---- */\n"
     << "#define " << upper << "_WEIGHTS_BYTES "
     << (weights ? weights->bytes : 0) << "ull /* 0: in the object */\n"
     << "#define " << upper << "_WEIGHTS_CHECKSUM 0x"
     << llvm::format_hex_no_prefix(weights ? weights->checksum : 0, 16)
     << "ull\n\n";
  if (weights)
    os << "void " << prefix << "_bind_weights(const void *data);\n"
       << "const void *" << prefix << "_weights_base(void);\n\n";
  os << "/* Maps and checks the weights file (size, header, checksum) and\n"
        "   points the object's code at it, once per process: the mapping\n"
        "   stays until the process exits. Does nothing when the weights "
        "are\n   in the object or already loaded. */\n"
     << "static inline int " << prefix
     << "_load_weights(const char *path, char *msg, size_t msg_size) {\n";
  if (weights)
    os << "  const void *data = NULL;\n  int status;\n"
       << "  if (" << prefix << "_weights_base())\n"
       << "    return GRAPHOPT_AOT_OK;\n"
       << "  status = graphopt_aot_map_weights_(\"" << entry << "\", path, "
       << upper << "_WEIGHTS_BYTES,\n      " << upper
       << "_WEIGHTS_CHECKSUM, &data, msg, msg_size);\n"
       << "  if (status != GRAPHOPT_AOT_OK)\n    return status;\n"
       << "  " << prefix << "_bind_weights(data);\n";
  else
    os << "  (void)path;\n  (void)msg;\n  (void)msg_size;\n";
  os << "  return GRAPHOPT_AOT_OK;\n}\n\n";

  // The context.
  os << "/* ---- The context API ---- */\n"
     << "typedef struct " << prefix << "_context {\n";
  if (numOut)
    os << "  " << resultType << " results;\n";
  os << "  void *owned[" << std::max<size_t>(numOut, 1)
     << "]; /* the results' buffers */\n"
     << "  char error[512];\n"
     << "} " << prefix << "_context;\n\n";

  os << "/* Loads the weights (weights_path: the file of --emit-weights; "
        "NULL when\n   they are in the object) and creates a context. */\n"
     << "static inline int " << prefix << "_context_create(" << prefix
     << "_context **context,\n    const char *weights_path, char *msg, "
        "size_t msg_size) {\n"
     << "  int status;\n"
     << "  if (!context)\n"
     << "    return graphopt_aot_error_(msg, msg_size, \"" << prefix
     << "_context_create: context is NULL\");\n"
     << "  *context = NULL;\n"
     << "  status = " << prefix
     << "_load_weights(weights_path, msg, msg_size);\n"
     << "  if (status != GRAPHOPT_AOT_OK)\n    return status;\n"
     << "  *context = (" << prefix << "_context *)calloc(1, sizeof(" << prefix
     << "_context));\n"
     << "  if (!*context)\n"
     << "    return graphopt_aot_status_(GRAPHOPT_AOT_NO_MEMORY, msg, "
        "msg_size,\n        \"out of memory for a context of @"
     << entry << "\");\n"
     << "  return GRAPHOPT_AOT_OK;\n}\n\n";

  os << "/* The message of the last failed run (\"\" after a good one). */\n"
     << "static inline const char *" << prefix << "_context_error(const "
     << prefix << "_context *context) {\n"
     << "  return context ? context->error : \"no context\";\n}\n\n";

  os << "static inline void " << prefix << "_context_release_(" << prefix
     << "_context *c) {\n"
     << "  size_t k;\n"
     << "  for (k = 0; k < " << std::max<size_t>(numOut, 1) << "; ++k) {\n"
     << "    free(c->owned[k]);\n    c->owned[k] = NULL;\n  }\n}\n\n";

  os << "/* Frees the context and its results. */\n"
     << "static inline void " << prefix << "_context_destroy(" << prefix
     << "_context *context) {\n"
     << "  if (!context)\n    return;\n"
     << "  " << prefix << "_context_release_(context);\n"
     << "  free(context);\n}\n\n";

  // The run.
  os << "/* Checks the inputs (count, element type, rank, every dim) and "
        "runs @"
     << entry
     << ".\n   outputs[k] gets each result's type, shape and data, owned "
        "by the\n   context and valid until its next run or destroy. On an "
        "error nothing is\n   run and "
     << prefix << "_context_error() says why. */\n"
     << "static inline int " << prefix << "_context_run(" << prefix
     << "_context *c,\n    const graphopt_aot_tensor *inputs, size_t "
        "num_inputs,\n    graphopt_aot_tensor *outputs, size_t num_outputs) "
        "{\n";
  for (size_t i = 0; i < numIn; ++i)
    os << "  " << prefix << "_in" << i << " " << in(i) << ";\n";
  os << "  int status;\n";
  if (numOut)
    os << "  size_t k, j;\n  void *freed[" << numOut << "];\n"
       << "  size_t num_freed = 0;\n";
  os << "  if (!c)\n    return GRAPHOPT_AOT_BAD_INPUT;\n"
     << "  " << prefix << "_context_release_(c);\n"
     << "  c->error[0] = 0;\n"
     << "  if (num_inputs != " << numIn << ")\n"
     << "    return graphopt_aot_error_(c->error, sizeof c->error,\n"
     << "        \"@" << entry << " takes " << numIn << " input"
     << (numIn == 1 ? "" : "s")
     << " but %zu %s given\", num_inputs,\n        num_inputs == 1 ? "
        "\"was\" : \"were\");\n"
     << "  if (num_outputs != " << numOut << ")\n"
     << "    return graphopt_aot_error_(c->error, sizeof c->error,\n"
     << "        \"@" << entry << " has " << numOut << " result"
     << (numOut == 1 ? "" : "s")
     << " but room for %zu outputs was given\", num_outputs);\n";
  if (numIn)
    os << "  if (!inputs)\n"
       << "    return graphopt_aot_error_(c->error, sizeof c->error, "
          "\"inputs is NULL\");\n";
  if (numOut)
    os << "  if (!outputs)\n"
       << "    return graphopt_aot_error_(c->error, sizeof c->error, "
          "\"outputs is NULL\");\n";
  for (auto [i, t] : llvm::enumerate(sig.inputs)) {
    std::string p = in(i), x = "inputs[" + std::to_string(i) + "]";
    std::string type = cString(t.str());
    int64_t rank = t.shape.size();
    os << "  if (" << x << ".dtype != " << dtypeCode(t.dtype) << ")\n"
       << "    return graphopt_aot_error_(c->error, sizeof c->error,\n"
       << "        \"input " << i << " of @" << entry
       << ": element type %s, expected " << dtypeName(t.dtype) << " (" << type
       << ")\",\n        graphopt_aot_dtype_name_(" << x << ".dtype));\n"
       << "  if (" << x << ".rank != " << rank
       << (rank ? " || !" + x + ".shape" : std::string()) << ")\n"
       << "    return graphopt_aot_error_(c->error, sizeof c->error,\n"
       << "        \"input " << i << " of @" << entry
       << ": rank %d%s, expected " << rank << " (" << type << ")\",\n"
       << "        (int)" << x << ".rank, " << x
       << ".shape ? \"\" : \" with a NULL shape\");\n"
       << "  " << p << ".allocated = " << p << ".aligned = ("
       << cElementType(t.dtype) << " *)" << x << ".data;\n"
       << "  " << p << ".offset = 0;\n";
    if (rank) {
      os << "  {\n    int64_t stride = 1;\n    int d;\n"
         << "    for (d = " << rank - 1 << "; d >= 0; --d) {\n"
         << "      " << p << ".sizes[d] = " << x << ".shape[d];\n"
         << "      " << p << ".strides[d] = stride;\n"
         << "      stride *= " << x << ".shape[d] > 0 ? " << x
         << ".shape[d] : 1;\n    }\n  }\n";
    }
  }
  os << "  status = " << prefix << "_run(" << (numOut ? "&c->results" : "");
  for (size_t i = 0; i < numIn; ++i)
    os << (numOut || i ? ", " : "") << "&" << in(i);
  os << (numOut || numIn ? ", " : "") << "c->error, sizeof c->error);\n"
     << "  if (status != GRAPHOPT_AOT_OK)\n    return status;\n";
  // Each result: its buffer kept when it is contiguous, its own and no
  // input's; otherwise copied, and the buffer freed once (results may share
  // one; an input is never freed).
  for (auto [k, t] : llvm::enumerate(sig.outputs)) {
    std::string r = res(k);
    int64_t rank = t.shape.size();
    std::string elem = "sizeof(" + std::string(cElementType(t.dtype)) + ")";
    os << "  k = " << k << ";\n  {\n"
       << "    int64_t count = 1, expect = 1;\n"
       << "    int contiguous = " << r << ".offset == 0, shared = 0, d;\n"
       << "    char *at = (char *)" << r << ".aligned + " << r
       << ".offset * (int64_t)" << elem << ";\n";
    if (rank)
      os << "    for (d = " << rank - 1 << "; d >= 0; --d) {\n"
         << "      if (" << r << ".sizes[d] != 1 && " << r
         << ".strides[d] != expect)\n        contiguous = 0;\n"
         << "      expect *= " << r << ".sizes[d];\n"
         << "      count *= " << r << ".sizes[d];\n    }\n";
    os << "    (void)d;\n    (void)expect;\n";
    for (size_t i = 0; i < numIn; ++i)
      os << "    shared |= (void *)" << r << ".allocated == inputs[" << i
         << "].data;\n";
    os << "    for (j = 0; j < k; ++j)\n"
       << "      shared |= c->owned[j] == (void *)" << r << ".allocated;\n"
       << "    (void)count;\n"
       << "    if (contiguous && !shared) {\n"
       << "      c->owned[k] = " << r << ".allocated;\n"
       << "    } else {\n"
       << "      char *copy = (char *)malloc(count ? (size_t)count * " << elem
       << " : 1);\n"
       << "      if (!copy) {\n"
       << "        " << prefix << "_context_release_(c);\n"
       << "        return graphopt_aot_status_(GRAPHOPT_AOT_NO_MEMORY, "
          "c->error,\n            sizeof c->error, \"out of memory for "
          "result "
       << k << " of @" << entry << "\");\n      }\n"
       << "      if (count)\n"
       << "        graphopt_aot_copy_strided_(copy, at, " << rank << ", "
       << (rank ? r + ".sizes" : std::string("NULL")) << ", "
       << (rank ? r + ".strides" : std::string("NULL")) << ", " << elem
       << ");\n"
       << "      c->owned[k] = copy;\n"
       << "      at = copy;\n"
       << "      shared = 0;\n";
    for (size_t i = 0; i < numIn; ++i)
      os << "      shared |= (void *)" << r << ".allocated == inputs[" << i
         << "].data;\n";
    os << "      for (j = 0; j < num_freed; ++j)\n"
       << "        shared |= freed[j] == (void *)" << r << ".allocated;\n"
       << "      if (!shared)\n"
       << "        freed[num_freed++] = " << r << ".allocated;\n"
       << "    }\n"
       << "    outputs[k].dtype = " << dtypeCode(t.dtype) << ";\n"
       << "    outputs[k].rank = " << rank << ";\n"
       << "    outputs[k].shape = "
       << (rank ? r + ".sizes" : std::string("NULL")) << ";\n"
       << "    outputs[k].data = at;\n  }\n";
  }
  if (numOut)
    // A buffer copied from may still be another result's kept buffer.
    os << "  for (j = 0; j < num_freed; ++j) {\n"
       << "    int kept = 0;\n"
       << "    for (k = 0; k < " << numOut << "; ++k)\n"
       << "      kept |= c->owned[k] == freed[j];\n"
       << "    if (!kept)\n      free(freed[j]);\n  }\n";
  os << "  return GRAPHOPT_AOT_OK;\n}\n\n";
}
} // namespace

llvm::Expected<std::string>
mlir::graphopt::runtime::aotHeaderText(const EntrySignature &sig, bool cuda,
                                       const AOTWeights *weights) {
  if (!isCIdentifier(sig.name))
    return llvm::createStringError(
        "a C header needs an entry named like a C identifier, got @%s",
        sig.name.c_str());
  for (const auto *list : {&sig.inputs, &sig.outputs})
    for (const TensorSignature &t : *list)
      if (!cElementType(t.dtype))
        return llvm::createStringError("no C element type for %s",
                                       t.str().c_str());
  const std::string &entry = sig.name;
  std::string prefix = "graphopt_" + entry;
  std::string guard = llvm::StringRef("GRAPHOPT_AOT_" + entry + "_H").upper();
  std::string text;
  llvm::raw_string_ostream os(text);

  auto inName = [&](size_t i) { return prefix + "_in" + std::to_string(i); };
  auto outName = [&](size_t i) { return prefix + "_out" + std::to_string(i); };
  std::string resultType =
      sig.outputs.size() == 1 ? outName(0) : prefix + "_results";
  // The results' descriptor(s) come first; a function without results has
  // no such parameter.
  bool hasResults = !sig.outputs.empty();
  // The parameter lists: inputs const for the checked functions.
  std::string params, constParams, args, checkArgs;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    std::string p = "in" + std::to_string(i);
    params += ", " + inName(i) + " *" + p;
    constParams += ", const " + inName(i) + " *" + p;
    args += ", (" + inName(i) + " *)" + p;
    checkArgs += p + ", ";
  }

  os << "/* The C interface of @" << entry
     << " in an object written by graph-run --emit-object\n"
        " * --emit-header (docs/AOT.md). Generated: do not edit.\n"
        " *\n";
  for (auto [i, t] : llvm::enumerate(sig.inputs))
    os << " *   input " << i << ":  " << t.str() << "\n";
  for (auto [i, t] : llvm::enumerate(sig.outputs))
    os << " *   result " << i << ": " << t.str() << "\n";
  os << " *\n"
     << " * " << prefix
     << "_run() checks the inputs (their sizes against the static dims and\n"
        " * against each other where the program needs them equal, a "
        "buffer, offset 0,\n"
        " * row-major contiguous strides), then calls the object's "
        "_mlir_ciface_"
     << entry
     << ";\n"
        " * it returns GRAPHOPT_AOT_OK, or GRAPHOPT_AOT_BAD_INPUT with a "
        "message in\n"
        " * msg (msg_size bytes; msg may be NULL) and nothing run.\n";
  if (cuda)
    os << " * CUDA: inputs and results are device buffers "
          "(graphopt/Runtime/CUDARuntime.h);\n"
          " * free a result with graphoptCudaFree(result.allocated).\n";
  else
    os << " * Results are allocated by the object with malloc: "
          "free(result.allocated).\n";
  os << " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <errno.h>\n#include <stdarg.h>\n#include <stddef.h>\n"
        "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
        "#include <string.h>\n"
        "#if defined(__unix__) || defined(__APPLE__)\n#include <fcntl.h>\n"
        "#include <sys/mman.h>\n#include <sys/stat.h>\n#include <unistd.h>\n"
        "#endif\n\n"
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << kCommon;

  for (auto [i, t] : llvm::enumerate(sig.inputs))
    writeDescriptor(os, inName(i), t, "input " + std::to_string(i));
  for (auto [i, t] : llvm::enumerate(sig.outputs))
    writeDescriptor(os, outName(i), t, "result " + std::to_string(i));
  if (sig.outputs.size() > 1) {
    os << "/* The results, consecutive descriptors in one buffer. */\n"
       << "typedef struct " << resultType << " {\n";
    for (size_t i = 0; i < sig.outputs.size(); ++i)
      os << "  " << outName(i) << " r" << i << ";\n";
    os << "} " << resultType << ";\n\n";
  }

  os << "/* The object's entry point; it checks nothing. */\n"
     << "void _mlir_ciface_" << entry << "("
     << (hasResults       ? resultType + " *results" + params
         : params.empty() ? std::string("void")
                          : params.substr(2))
     << ");\n\n";

  // The check.
  os << "static inline int " << prefix << "_check(";
  {
    std::string ps = constParams.empty() ? "" : constParams.substr(2) + ", ";
    os << ps << "char *msg, size_t msg_size) {\n";
  }
  for (auto [i, t] : llvm::enumerate(sig.inputs)) {
    std::string p = "in" + std::to_string(i);
    std::string type = cString(t.str());
    int64_t rank = t.shape.size();
    os << "  {\n";
    if (rank > 0) {
      os << "    static const int64_t want[" << rank << "] = {";
      for (auto [d, s] : llvm::enumerate(t.shape))
        os << (d ? ", " : "") << (s == kDynamicDim ? -1 : s);
      os << "};\n";
    } else {
      os << "    static const int64_t want[1] = {0};\n";
    }
    os << "    int status;\n"
       << "    if (!" << p << ")\n"
       << "      return graphopt_aot_error_(msg, msg_size, \"input " << i
       << " of @" << entry << " is NULL\");\n"
       << "    status = graphopt_aot_check_input_(\"" << entry << "\", " << i
       << ", \"" << type << "\", " << p << "->aligned, " << p << "->offset, "
       << rank << ", " << (rank ? p + "->sizes" : std::string("NULL")) << ", "
       << (rank ? p + "->strides" : std::string("NULL")) << ", want, "
       << (cuda ? 16 : 0) << ", msg, msg_size);\n"
       << "    if (status != GRAPHOPT_AOT_OK)\n      return status;\n"
       << "  }\n";
  }
  for (const ArgDimEquality &e : sig.dimEqualities) {
    std::string got =
        "in" + std::to_string(e.arg) + "->sizes[" + std::to_string(e.dim) + "]";
    std::string want = e.otherArg < 0
                           ? std::to_string(e.size)
                           : "in" + std::to_string(e.otherArg) + "->sizes[" +
                                 std::to_string(e.otherDim) + "]";
    std::string other = e.otherArg < 0
                            ? std::string("the static size")
                            : "dim " + std::to_string(e.otherDim) +
                                  " of input " + std::to_string(e.otherArg);
    std::string reason =
        e.reason.empty() ? std::string() : " for " + cString(e.reason);
    os << "  if (" << got << " != " << want << ")\n"
       << "    return graphopt_aot_error_(msg, msg_size, \"input " << e.arg
       << " of @" << entry << ": dim " << e.dim
       << " is %lld but %s is %lld; the program needs them equal%s%s\",\n"
       << "        (long long)" << got << ", \"" << other << "\", (long long)("
       << want << "), \"" << reason << "\",\n        " << got << " == 1 || ("
       << want
       << ") == 1 ? \" (a dynamic dim of size 1 is not broadcast at run "
          "time)\" : \"\");\n";
  }
  os << "  return GRAPHOPT_AOT_OK;\n}\n\n";

  // The checked call.
  os << "static inline int " << prefix << "_run("
     << (hasResults            ? resultType + " *results" + constParams
         : constParams.empty() ? std::string()
                               : constParams.substr(2))
     << (hasResults || !constParams.empty() ? ", " : "")
     << "char *msg, size_t msg_size) {\n"
     << "  int status = " << prefix << "_check(" << checkArgs
     << "msg, msg_size);\n"
     << "  if (status != GRAPHOPT_AOT_OK)\n    return status;\n"
     << "  _mlir_ciface_" << entry << "("
     << (hasResults     ? "results" + args
         : args.empty() ? std::string()
                        : args.substr(2))
     << ");\n"
     << "  return GRAPHOPT_AOT_OK;\n}\n\n";
  if (!cuda)
    writeContextAPI(os, sig, prefix, resultType, weights);
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

llvm::Error mlir::graphopt::runtime::writeAOTHeader(const EntrySignature &sig,
                                                    bool cuda,
                                                    llvm::StringRef path,
                                                    const AOTWeights *weights) {
  auto text = aotHeaderText(sig, cuda, weights);
  if (!text)
    return text.takeError();
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError("cannot write %s: %s", path.str().c_str(),
                                   ec.message().c_str());
  out.os() << *text;
  out.keep();
  return llvm::Error::success();
}

std::string
mlir::graphopt::runtime::aotSignatureJSON(const EntrySignature &sig, bool cuda,
                                          const AOTWeights *weights) {
  auto tensors = [](llvm::ArrayRef<TensorSignature> list) {
    llvm::json::Array out;
    for (const TensorSignature &t : list) {
      llvm::json::Array shape;
      for (int64_t d : t.shape)
        shape.push_back(d == kDynamicDim ? int64_t(-1) : d);
      out.push_back(llvm::json::Object{{"dtype", dtypeName(t.dtype)},
                                       {"shape", std::move(shape)}});
    }
    return out;
  };
  llvm::json::Array equalities;
  for (const ArgDimEquality &e : sig.dimEqualities)
    equalities.push_back(llvm::json::Object{{"arg", int64_t(e.arg)},
                                            {"dim", int64_t(e.dim)},
                                            {"other_arg", e.otherArg},
                                            {"other_dim", int64_t(e.otherDim)},
                                            {"size", e.size},
                                            {"reason", e.reason}});
  llvm::json::Object root{{"format", 1},
                          {"entry", sig.name},
                          {"cuda", cuda},
                          {"inputs", tensors(sig.inputs)},
                          {"outputs", tensors(sig.outputs)},
                          {"dim_equalities", std::move(equalities)}};
  if (weights)
    root["weights"] = llvm::json::Object{
        {"bytes", int64_t(weights->bytes)},
        {"checksum", llvm::formatv("{0:x16}", weights->checksum).str()}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(root));
  return text;
}
