//===- PDLPatterns.cpp - user rewrite rules in PDL/PDLL -------------------===//
//
// MLIR's PDLL parser is not part of the libraries the Debian packages ship
// (only the AST, ODS and code generation are), so a .pdll file is
// translated to the PDL dialect by the mlir-pdll tool in a subprocess; the
// PDL module it prints is parsed back in process. The checks after loading
// turn what would be an assertion or a silently wrong pattern in the PDL
// bytecode compiler (an unregistered native function, an unknown op) into an
// error naming the pattern. One more guard: MLIR 22's bytecode interpreter
// crashes when a rewrite creates an op whose result types it must infer and
// inference fails, so such types are inferred by a native rewrite of ours
// instead, which gives the op a placeholder type the verifier rejects.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/Transforms/PDLPatterns.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

//===----------------------------------------------------------------------===//
// Native constraints and rewrites
//===----------------------------------------------------------------------===//

/// The element of a splat constant.
struct Splat {
  /// Its exact value.
  double value;
  /// The shortest decimal that names it in its type (the value for
  /// integers): an f32 1e-5 is 1e-5 here, 9.99999974e-6 in `value`.
  double decimal;
  Type elementType;
};

/// The shortest decimal that rounds back to `f` in `f`'s type, as a double.
double shortestDecimal(const APFloat &f) {
  if (!f.isFinite())
    return f.convertToDouble();
  for (unsigned digits = 1; digits < 17; ++digits) {
    SmallString<32> decimal;
    f.toString(decimal, digits, /*FormatMaxPadding=*/0);
    APFloat back(f.getSemantics());
    double value;
    if (!errorToBool(
            back.convertFromString(decimal, APFloat::rmNearestTiesToEven)
                .takeError()) &&
        back.bitwiseIsEqual(f) && !StringRef(decimal).getAsDouble(value))
      return value;
  }
  return f.convertToDouble();
}

std::optional<Splat> getSplat(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (!attr.isSplat() && attr.getNumElements() != 1)
    return std::nullopt;
  Type et = attr.getElementType();
  if (isa<FloatType>(et)) {
    APFloat f = *attr.value_begin<APFloat>();
    return Splat{f.convertToDouble(), shortestDecimal(f), et};
  }
  if (auto it = dyn_cast<IntegerType>(et)) {
    APInt i = *attr.value_begin<APInt>();
    double v = it.getWidth() == 1 ? (double)i.getZExtValue()
                                  : (double)i.getSExtValue();
    return Splat{v, v, et};
  }
  return std::nullopt;
}

std::optional<double> getNumber(Attribute attr) {
  if (auto f = dyn_cast_if_present<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_if_present<IntegerAttr>(attr))
    return (double)i.getValue().getSExtValue();
  return std::nullopt;
}

LogicalResult isSplat(PatternRewriter &, Value value) {
  return success(getSplat(value).has_value());
}

LogicalResult splatEquals(PatternRewriter &, Value value, Attribute number) {
  std::optional<Splat> splat = getSplat(value);
  std::optional<double> want = getNumber(number);
  if (!splat || !want)
    return failure();
  double expected = *want;
  if (auto ft = dyn_cast<FloatType>(splat->elementType)) {
    // Round to the constant's type first: an f16 0.1 is not 0.1.
    APFloat rounded(expected);
    bool lostInfo;
    rounded.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lostInfo);
    expected = rounded.convertToDouble();
    if (std::isnan(expected) || std::isnan(splat->value))
      return success(std::isnan(expected) && std::isnan(splat->value));
    if (std::isinf(expected) || std::isinf(splat->value))
      return success(expected == splat->value);
    return success(std::fabs(splat->value - expected) <=
                   1e-6 *
                       std::max(std::fabs(splat->value), std::fabs(expected)));
  }
  return success(splat->value == expected);
}

LogicalResult hasStaticShape(PatternRewriter &, Value value) {
  auto t = dyn_cast<RankedTensorType>(value.getType());
  return success(t && t.hasStaticShape());
}

LogicalResult isLastAxis(PatternRewriter &, Value value, Attribute axis) {
  auto t = dyn_cast<RankedTensorType>(value.getType());
  auto a = dyn_cast_if_present<IntegerAttr>(axis);
  if (!t || !a)
    return failure();
  int64_t i = a.getValue().getSExtValue();
  return success(t.getRank() > 0 && (i == -1 || i == t.getRank() - 1));
}

LogicalResult swapsLastTwoDims(PatternRewriter &, Attribute permutation) {
  auto perm = dyn_cast_if_present<DenseI64ArrayAttr>(permutation);
  if (!perm || perm.size() < 2)
    return failure();
  ArrayRef<int64_t> p = perm.asArrayRef();
  int64_t r = p.size();
  for (int64_t i = 0; i < r - 2; ++i)
    if (p[i] != i)
      return failure();
  return success(p[r - 2] == r - 1 && p[r - 1] == r - 2);
}

FailureOr<Attribute> splatValue(PatternRewriter &rewriter, Value value) {
  std::optional<Splat> splat = getSplat(value);
  if (!splat)
    return failure();
  return Attribute(rewriter.getF64FloatAttr(splat->decimal));
}

FailureOr<Attribute> reciprocalSplatValue(PatternRewriter &rewriter,
                                          Value value) {
  std::optional<Splat> splat = getSplat(value);
  if (!splat || splat->decimal == 0)
    return failure();
  return Attribute(rewriter.getF64FloatAttr(1.0 / splat->decimal));
}

/// The native rewrite that infers result types in place of the bytecode
/// interpreter. Not a PDLL identifier, so rule files cannot name it.
constexpr StringLiteral kInferResultTypes = "graphopt.InferResultTypes";

/// Whether `n` operands fit the arity traits of `info` (ops without such a
/// trait are trusted). Inference functions index operands by their ODS
/// position and do not check the count.
bool hasValidOperandCount(RegisteredOperationName info, size_t n) {
  if (info.hasTrait<OpTrait::ZeroOperands>())
    return n == 0;
  if (info.hasTrait<OpTrait::OneOperand>())
    return n == 1;
  if (info.hasTrait<OpTrait::NOperands<2>::Impl>())
    return n == 2;
  if (info.hasTrait<OpTrait::NOperands<3>::Impl>())
    return n == 3;
  if (info.hasTrait<OpTrait::NOperands<4>::Impl>())
    return n == 4;
  if (info.hasTrait<OpTrait::AtLeastNOperands<1>::Impl>())
    return n >= 1;
  if (info.hasTrait<OpTrait::AtLeastNOperands<2>::Impl>())
    return n >= 2;
  if (info.hasTrait<OpTrait::AtLeastNOperands<3>::Impl>())
    return n >= 3;
  return true;
}

/// The result types of the op `state` describes, or std::nullopt if they
/// cannot be inferred. Emits nothing.
std::optional<SmallVector<Type>>
tryInferResultTypes(RegisteredOperationName info, OperationState &state) {
  auto *inference = info.getInterface<InferTypeOpInterface>();
  if (!inference || !hasValidOperandCount(info, state.operands.size()))
    return std::nullopt;
  // graph and fusion ops take ranked tensors only, and their inference
  // functions rely on it.
  StringRef dialect = info.getDialectNamespace();
  if ((dialect == "graph" || dialect == "fusion") &&
      !llvm::all_of(state.operands,
                    [](Value v) { return isa<RankedTensorType>(v.getType()); }))
    return std::nullopt;

  MLIRContext *ctx = state.getContext();
  DictionaryAttr attributes = state.attributes.getDictionary(ctx);
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
  // Inference reads inherent attributes from the op's properties.
  std::unique_ptr<char[]> storage;
  OpaqueProperties properties(nullptr);
  if (int size = info.getOpPropertyByteSize()) {
    storage = std::make_unique<char[]>(size);
    properties = OpaqueProperties(storage.get());
    info.initOpProperties(properties, OpaqueProperties(nullptr));
  }
  llvm::scope_exit destroy([&] {
    if (storage)
      info.destroyOpProperties(properties);
  });
  if (storage && failed(info.setOpPropertiesFromAttribute(
                     info, properties, attributes,
                     [&] { return emitError(state.location); })))
    return std::nullopt;
  SmallVector<Type> types;
  if (failed(inference->inferReturnTypes(ctx, /*location=*/std::nullopt,
                                         state.operands, attributes, properties,
                                         state.regions, types)))
    return std::nullopt;
  return types;
}

/// Infers the result types of an op a rewrite creates. `args`: the op name
/// (StringAttr), the attribute names (ArrayAttr), the operands (values and
/// value ranges), then one attribute value per name.
///
/// It never fails: the greedy driver's rewriter cannot recover from a failed
/// native rewrite (it aborts), and the bytecode interpreter's own inference
/// crashes on failure. When the types cannot be inferred, the op gets
/// placeholder types (its first tensor operand's type, one result unless
/// its traits say none), which the verifier then rejects with the op's own
/// diagnostic, and graph-apply-pdl-patterns restores the function.
LogicalResult inferResultTypes(PatternRewriter &rewriter,
                               PDLResultList &results,
                               ArrayRef<PDLValue> args) {
  MLIRContext *ctx = rewriter.getContext();
  // inferTypesThroughNativeRewrite writes these two.
  auto opName = cast<StringAttr>(args[0].dyn_cast<Attribute>());
  auto attrNames = cast<ArrayAttr>(args[1].dyn_cast<Attribute>());
  OperationName name(opName.getValue(), ctx);
  OperationState state(rewriter.getUnknownLoc(), name);
  for (const PDLValue &operand :
       args.drop_front(2).drop_back(attrNames.size())) {
    if (Value v = operand.dyn_cast<Value>())
      state.addOperands(v);
    else if (std::optional<ValueRange> range = operand.dyn_cast<ValueRange>())
      state.addOperands(*range);
  }
  for (auto [attrName, value] :
       llvm::zip(attrNames, args.take_back(attrNames.size())))
    if (Attribute attr = value.dyn_cast<Attribute>())
      state.addAttribute(cast<StringAttr>(attrName), attr);

  std::optional<RegisteredOperationName> info = name.getRegisteredInfo();
  std::optional<SmallVector<Type>> types;
  if (info)
    types = tryInferResultTypes(*info, state);
  if (!types) {
    Type placeholder = NoneType::get(ctx);
    for (Value v : state.operands)
      if (isa<RankedTensorType>(v.getType())) {
        placeholder = v.getType();
        break;
      }
    types.emplace();
    if (!info || !info->hasTrait<OpTrait::ZeroResults>())
      types->push_back(placeholder);
  }
  results.push_back(TypeRange(*types));
  return success();
}

/// Makes every op a rewrite creates with inferred result types take them
/// from kInferResultTypes.
void inferTypesThroughNativeRewrite(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  module.walk([&](pdl::OperationOp op) {
    if (!op->getParentOfType<pdl::RewriteOp>() || !op.getOpName() ||
        !op.getTypeValues().empty() || !op.hasTypeInference())
      return;
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> args = {
        pdl::AttributeOp::create(b, loc, b.getStringAttr(*op.getOpName())),
        pdl::AttributeOp::create(b, loc, op.getAttributeValueNames())};
    llvm::append_range(args, op.getOperandValues());
    llvm::append_range(args, op.getAttributeValues());
    auto types = pdl::ApplyNativeRewriteOp::create(
        b, loc, pdl::RangeType::get(pdl::TypeType::get(ctx)),
        b.getStringAttr(kInferResultTypes), args);
    op.getTypeValuesMutable().assign(types.getResult(0));
  });
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// The directory graphopt's headers are installed in, next to the lib/
/// directory holding this library, if it has the graph dialect's ODS.
std::optional<std::string> installedIncludeDir() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&installedIncludeDir), &info) ||
      !info.dli_fname)
    return std::nullopt;
  SmallString<256> library;
  if (llvm::sys::fs::real_path(info.dli_fname, library))
    return std::nullopt;
  SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(library)));
  llvm::sys::path::append(dir, "include");
  SmallString<256> td(dir);
  llvm::sys::path::append(td, "graphopt/Dialect/Graph/IR/GraphOps.td");
  if (!llvm::sys::fs::exists(td))
    return std::nullopt;
  return std::string(dir);
}

/// The -I directories for mlir-pdll: the user's, then graphopt's and MLIR's.
std::vector<std::string> includeDirs(const PDLLoadOptions &options) {
  std::vector<std::string> dirs = options.includeDirs;
  if (std::optional<std::string> installed = installedIncludeDir())
    dirs.push_back(*installed);
  for (StringRef dir : {GRAPHOPT_SOURCE_INCLUDE_DIR, GRAPHOPT_MLIR_INCLUDE_DIR})
    if (llvm::sys::fs::is_directory(dir))
      dirs.push_back(dir.str());
  return dirs;
}

/// The mlir-pdll to run, or an error saying where it was looked for.
FailureOr<std::string> findMLIRPDLL(const PDLLoadOptions &options,
                                    Location loc) {
  if (!options.mlirPDLL.empty()) {
    StringRef tool = options.mlirPDLL;
    if (llvm::sys::fs::can_execute(tool))
      return tool.str();
    // A bare name is looked up on PATH; a path is taken as it is.
    if (!tool.contains('/'))
      if (auto found = llvm::sys::findProgramByName(tool))
        return *found;
    return emitError(loc, "mlir-pdll executable '") << tool << "' not found";
  }
  if (llvm::sys::fs::can_execute(GRAPHOPT_MLIR_PDLL))
    return std::string(GRAPHOPT_MLIR_PDLL);
  std::string versioned = "mlir-pdll-" + std::to_string(LLVM_VERSION_MAJOR);
  for (StringRef name : {StringRef(versioned), StringRef("mlir-pdll")})
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  return emitError(loc, "cannot translate .pdll files: mlir-pdll not found (")
         << "looked for '" << GRAPHOPT_MLIR_PDLL << "', then " << versioned
         << " and mlir-pdll on PATH); install mlir-" << LLVM_VERSION_MAJOR
         << "-tools, name the tool with mlir-pdll=PATH, or translate the "
            "file beforehand (mlir-pdll rules.pdll -x=mlir -o rules.mlir) and "
            "load the .mlir file";
}

/// Runs mlir-pdll on `path`; returns the PDL module it prints, as text.
FailureOr<std::string>
translatePDLL(StringRef path, const PDLLoadOptions &options, Location loc) {
  FailureOr<std::string> tool = findMLIRPDLL(options, loc);
  if (failed(tool))
    return failure();
  SmallString<128> outPath, errPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graphopt-pdll", "mlir", outPath))
    return emitError(loc, "cannot create a temporary file: ") << ec.message();
  llvm::FileRemover removeOut(outPath);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graphopt-pdll", "txt", errPath))
    return emitError(loc, "cannot create a temporary file: ") << ec.message();
  llvm::FileRemover removeErr(errPath);

  std::vector<std::string> dirs = includeDirs(options);
  SmallVector<StringRef> args = {*tool, path, "-x=mlir", "-o", outPath};
  for (const std::string &dir : dirs) {
    args.push_back("-I");
    args.push_back(dir);
  }
  std::optional<StringRef> redirects[] = {StringRef(), std::nullopt,
                                          StringRef(errPath)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*tool, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/120,
                                     /*MemoryLimit=*/0, &execError);
  std::string diagnostics;
  if (auto err = llvm::MemoryBuffer::getFile(errPath))
    diagnostics = (*err)->getBuffer().rtrim().str();
  if (rc != 0) {
    InFlightDiagnostic diag = emitError(loc, "mlir-pdll cannot translate '")
                              << path << "'";
    if (rc < 0)
      diag << " (" << (execError.empty() ? "it did not finish" : execError)
           << ")";
    if (!diagnostics.empty())
      diag << ":\n" << diagnostics;
    return diag;
  }
  if (!diagnostics.empty())
    emitWarning(loc, "mlir-pdll on '") << path << "':\n" << diagnostics;
  auto out = llvm::MemoryBuffer::getFile(outPath);
  if (!out)
    return emitError(loc, "cannot read mlir-pdll's output: ")
           << out.getError().message();
  return (*out)->getBuffer().str();
}

/// Checks what PDL's bytecode compiler assumes: only patterns, registered
/// ops, native functions graphopt registers.
LogicalResult checkPatternModule(ModuleOp module, StringRef path,
                                 Location loc) {
  MLIRContext *ctx = module.getContext();
  PDLPatternModule natives;
  registerGraphPDLFunctions(natives);
  auto nativeNames = [](const auto &functions) {
    SmallVector<StringRef> names;
    for (const auto &entry : functions)
      if (entry.getKey() != kInferResultTypes)
        names.push_back(entry.getKey());
    llvm::sort(names);
    return llvm::join(names, ", ");
  };

  int64_t numPatterns = 0;
  for (Operation &op : *module.getBody()) {
    if (isa<pdl::PatternOp>(op)) {
      ++numPatterns;
      continue;
    }
    return emitError(loc, "patterns file '")
           << path << "' holds a '" << op.getName()
           << "' op; it may only hold pdl.pattern ops (rules by example, "
              "@pattern_NAME/@replacement_NAME functions, are loaded by "
              "graph-replace-patterns)";
  }
  if (numPatterns == 0)
    return emitError(loc, "patterns file '") << path << "' has no patterns";

  WalkResult walk = module.walk([&](Operation *op) -> WalkResult {
    if (auto operation = dyn_cast<pdl::OperationOp>(op)) {
      std::optional<StringRef> name = operation.getOpName();
      if (!name || ctx->allowsUnregisteredDialects() ||
          RegisteredOperationName::lookup(*name, ctx))
        return WalkResult::advance();
      bool creates =
          operation.getOperation()->getParentOfType<pdl::RewriteOp>();
      emitError(operation.getLoc(),
                creates ? "the rewrite creates" : "the pattern matches")
          << " unknown op '" << *name << "'";
      return WalkResult::interrupt();
    }
    if (auto constraint = dyn_cast<pdl::ApplyNativeConstraintOp>(op)) {
      if (natives.getConstraintFunctions().contains(constraint.getName()))
        return WalkResult::advance();
      emitError(constraint.getLoc(), "no native constraint '")
          << constraint.getName() << "' (graphopt provides "
          << nativeNames(natives.getConstraintFunctions())
          << "; constraints with C++ bodies need build-time PDLL, -x=cpp)";
      return WalkResult::interrupt();
    }
    if (auto rewrite = dyn_cast<pdl::ApplyNativeRewriteOp>(op)) {
      if (natives.getRewriteFunctions().contains(rewrite.getName()))
        return WalkResult::advance();
      emitError(rewrite.getLoc(), "no native rewrite '")
          << rewrite.getName() << "' (graphopt provides "
          << nativeNames(natives.getRewriteFunctions())
          << "; rewrites with C++ bodies need build-time PDLL, -x=cpp)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace

void mlir::graphopt::graph::registerGraphPDLFunctions(
    PDLPatternModule &module) {
  module.registerConstraintFunction("IsSplat", isSplat);
  module.registerConstraintFunction("SplatEquals", splatEquals);
  module.registerConstraintFunction("HasStaticShape", hasStaticShape);
  module.registerConstraintFunction("IsLastAxis", isLastAxis);
  module.registerConstraintFunction("SwapsLastTwoDims", swapsLastTwoDims);
  module.registerRewriteFunction("SplatValue", splatValue);
  module.registerRewriteFunction("ReciprocalSplatValue", reciprocalSplatValue);
  module.registerRewriteFunction(kInferResultTypes, inferResultTypes);
}

OwningOpRef<ModuleOp> mlir::graphopt::graph::loadPDLPatternModule(
    MLIRContext *context, StringRef path, const PDLLoadOptions &options,
    Location loc) {
  context->getOrLoadDialect<pdl::PDLDialect>();
  llvm::SourceMgr sourceMgr;
  if (llvm::sys::path::extension(path) == ".pdll") {
    if (!llvm::sys::fs::exists(path)) {
      emitError(loc, "cannot read patterns file '")
          << path << "': No such file or directory";
      return nullptr;
    }
    FailureOr<std::string> translated = translatePDLL(path, options, loc);
    if (failed(translated))
      return nullptr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(*translated, path), SMLoc());
  } else {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      emitError(loc, "cannot read patterns file '")
          << path << "': " << buffer.getError().message();
      return nullptr;
    }
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module) {
    emitError(loc, "cannot parse patterns file '") << path << "'";
    return nullptr;
  }
  if (failed(checkPatternModule(*module, path, loc)))
    return nullptr;
  inferTypesThroughNativeRewrite(*module);
  return module;
}
