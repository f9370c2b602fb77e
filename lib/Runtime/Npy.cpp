//===- Npy.cpp - NumPy .npy reading and writing ---------------------------===//
//
// Format: "\x93NUMPY", major, minor, header length (u16 for v1, u32 for v2/3),
// then a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), } padded with spaces to a multiple of 64, then the data.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Runtime/HostTensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir::graphopt::runtime;
using llvm::StringRef;

static llvm::Error npyError(StringRef path, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + msg);
}

/// The value of `'key': ...` in the header dict, up to the next top-level
/// comma.
static StringRef headerField(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return {};
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  rest = rest.drop_front(rest.starts_with(":") ? 1 : 0).ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    return rest.take_front(close + 1);
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

llvm::Expected<HostTensor> mlir::graphopt::runtime::readNpy(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return npyError(path, "cannot open: " + buffer.getError().message());
  StringRef data = (*buffer)->getBuffer();
  if (data.size() < 10 || !data.starts_with("\x93NUMPY"))
    return npyError(path, "not a .npy file (bad magic)");
  uint8_t major = data[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = (uint8_t)data[8] | ((uint8_t)data[9] << 8);
    headerStart = 10;
  } else {
    if (data.size() < 12)
      return npyError(path, "truncated header");
    headerLen = (uint8_t)data[8] | ((uint8_t)data[9] << 8) |
                ((uint8_t)data[10] << 16) | ((size_t)(uint8_t)data[11] << 24);
    headerStart = 12;
  }
  if (data.size() < headerStart + headerLen)
    return npyError(path, "truncated header");
  StringRef header = data.substr(headerStart, headerLen);
  StringRef descr = headerField(header, "descr").trim("'\"");
  StringRef fortran = headerField(header, "fortran_order");
  StringRef shapeStr = headerField(header, "shape").trim("()");
  if (fortran == "True")
    return npyError(path, "Fortran-order arrays are not supported; save with "
                          "np.ascontiguousarray");
  std::optional<DType> dtype;
  if (descr == "<f4")
    dtype = DType::F32;
  else if (descr == "<f2")
    dtype = DType::F16;
  else if (descr == "<i4")
    dtype = DType::I32;
  else if (descr == "<i8")
    dtype = DType::I64;
  else if (descr == "|b1")
    dtype = DType::I1;
  else if (descr == "<f8")
    dtype = DType::F64;
  else if (descr == "|i1")
    dtype = DType::I8;
  else if (descr == "<i2")
    dtype = DType::I16;
  else if (descr == "|u1")
    dtype = DType::U8;
  else if (descr == "<u2")
    dtype = DType::U16;
  else if (descr == "<u4")
    dtype = DType::U32;
  else if (descr == "<u8")
    dtype = DType::U64;
  if (!dtype)
    return npyError(path, "unsupported dtype '" + descr +
                              "' (supported: <f8, <f4, <f2, <i8, <i4, <i2, "
                              "|i1, <u8, <u4, <u2, |u1, |b1)");
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<StringRef> dims;
  shapeStr.split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef d : dims) {
    int64_t v;
    if (d.trim().getAsInteger(10, v))
      return npyError(path, "bad shape '" + shapeStr + "'");
    shape.push_back(v);
  }
  // Check the size the header claims against the file before allocating.
  std::optional<size_t> bytes = tensorBytes(*dtype, shape);
  if (!bytes)
    return npyError(path, "bad shape '" + shapeStr +
                              "' (negative dim, or too large)");
  size_t payload = headerStart + headerLen;
  if (data.size() - payload < *bytes)
    return npyError(path, "truncated data: the header's shape needs " +
                              llvm::Twine(*bytes) + " bytes, the file has " +
                              llvm::Twine(data.size() - payload));
  auto created = HostTensor::create(*dtype, shape);
  if (!created)
    return created.takeError();
  HostTensor t = std::move(*created);
  std::memcpy(t.data(), data.data() + payload, t.sizeInBytes());
  return t;
}

llvm::Error mlir::graphopt::runtime::writeNpy(StringRef path,
                                              const HostTensor &in) {
  const HostTensor *t = &in;
  HostTensor widened;
  if (in.dtype() == DType::BF16 || isFloat8DType(in.dtype())) {
    widened = HostTensor(DType::F32, in.shape());
    for (int64_t i = 0, n = in.numElements(); i < n; ++i)
      widened.setDouble(i, in.getDouble(i));
    t = &widened;
  }
  StringRef descr;
  switch (t->dtype()) {
  case DType::F32:
    descr = "<f4";
    break;
  case DType::F16:
    descr = "<f2";
    break;
  case DType::I32:
    descr = "<i4";
    break;
  case DType::I64:
    descr = "<i8";
    break;
  case DType::I1:
    descr = "|b1";
    break;
  case DType::F64:
    descr = "<f8";
    break;
  case DType::I8:
    descr = "|i1";
    break;
  case DType::I16:
    descr = "<i2";
    break;
  case DType::U8:
    descr = "|u1";
    break;
  case DType::U16:
    descr = "<u2";
    break;
  case DType::U32:
    descr = "<u4";
    break;
  case DType::U64:
    descr = "<u8";
    break;
  case DType::BF16:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    break;
  }
  // Python tuple syntax: (), (n,), (a, b, c).
  std::string shape = "(";
  for (auto [i, d] : llvm::enumerate(t->shape()))
    shape += (i ? ", " : "") + std::to_string(d);
  shape += t->rank() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr.str() +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << (char)1 << (char)0 << (char)(header.size() & 0xff)
     << (char)(header.size() >> 8) << header;
  os.write((const char *)t->data(), t->sizeInBytes());
  return llvm::Error::success();
}
