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
/* Status of graphopt_<entry>_check and graphopt_<entry>_run. */
enum { GRAPHOPT_AOT_OK = 0, GRAPHOPT_AOT_BAD_INPUT = 1 };

static inline int graphopt_aot_error_(char *msg, size_t size, const char *fmt,
                                      ...) {
  if (msg && size) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(msg, size, fmt, args);
    va_end(args);
  }
  return GRAPHOPT_AOT_BAD_INPUT;
}

/* 0, or GRAPHOPT_AOT_BAD_INPUT with a message: one input descriptor against
   the static dims of its type (dims < 0 in `want` are dynamic). */
static inline int graphopt_aot_check_input_(
    const char *entry, int index, const char *type, const void *aligned,
    int64_t offset, int64_t rank, const int64_t *sizes,
    const int64_t *strides, const int64_t *want, char *msg, size_t size) {
  int64_t d, elements = 1, expect = 1;
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
    elements *= sizes[d];
  }
  if (elements == 0)
    return GRAPHOPT_AOT_OK;
  if (!aligned)
    return graphopt_aot_error_(msg, size,
                               "input %d of @%s: the buffer (aligned) is "
                               "NULL (%s)",
                               index, entry, type);
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
#endif /* GRAPHOPT_AOT_COMMON_ */

)C";

} // namespace

llvm::Expected<std::string>
mlir::graphopt::runtime::aotHeaderText(const EntrySignature &sig, bool cuda) {
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
     << "#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n"
        "#include <stdio.h>\n\n"
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
       << (rank ? p + "->strides" : std::string("NULL"))
       << ", want, msg, msg_size);\n"
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
     << "  return GRAPHOPT_AOT_OK;\n}\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

llvm::Error mlir::graphopt::runtime::writeAOTHeader(const EntrySignature &sig,
                                                    bool cuda,
                                                    llvm::StringRef path) {
  auto text = aotHeaderText(sig, cuda);
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

std::string mlir::graphopt::runtime::aotSignatureJSON(const EntrySignature &sig,
                                                      bool cuda) {
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
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(root));
  return text;
}
