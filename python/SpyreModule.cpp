//===- SpyreModule.cpp - pybind11 bindings of the layout algebra ----------===//
//
// The `spyre._spyre` extension: SpyreTensorLayout, DMA nests, stickify and
// unstickify over numpy arrays. Everything is a thin layer over the C++
// library (Spyre/Layout); every error the library reports is raised as a
// ValueError carrying exactly its message.
//
// A Python SpyreTensorLayout is the C++ value plus what the library keeps
// apart from it: the host view it was built for (when known) and the host
// element type (float16 / bfloat16 / bool all share SEN169_FP16, so the host
// type is not derivable from the layout).
//
// Host arrays: the layout's stride_map is expressed in the strides of the
// host view the layout was built for (contiguous unless `strides=` was
// given). A numpy array with other strides holds the same logical tensor, so
// the layout is re-expressed in the array's strides (each device dim keeps
// the host dim and multiplier it tiles) and the data is moved straight from
// or to the strided buffer. Arrays whose strides cannot be used (negative,
// zero, not a multiple of the element size) are copied to a contiguous
// buffer first.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/DataFormat.h"
#include "Spyre/Layout/Layout.h"
#include "Spyre/Layout/Stickify.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using IntList = std::vector<int64_t>;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

[[noreturn]] void raise(const std::string &message) {
  throw py::value_error(message);
}

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    raise(llvm::toString(value.takeError()));
  return std::move(*value);
}

IntList toList(ArrayRef<int64_t> values) {
  return IntList(values.begin(), values.end());
}
IntList toList(ArrayRef<int32_t> values) {
  return IntList(values.begin(), values.end());
}

std::string listStr(ArrayRef<int64_t> values) { return formatList(values); }

bool sameList(ArrayRef<int64_t> a, ArrayRef<int64_t> b) { return a == b; }

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

const char *kDtypeNames =
    "float16, bfloat16, float32, int8, int32, int64, float8_e4m3fn, "
    "float8_e5m2, bool, int4";

py::object numpy() { return py::module_::import("numpy"); }

py::dtype makeDtype(const char *name) { return py::dtype(std::string(name)); }

bool dtypeEquals(const py::dtype &a, const py::dtype &b) {
  int result = PyObject_RichCompareBool(a.ptr(), b.ptr(), Py_EQ);
  if (result < 0)
    throw py::error_already_set();
  return result == 1;
}

std::string dtypeName(const py::dtype &dt) {
  return py::str(dt.attr("name")).cast<std::string>();
}

std::string reprOf(py::handle obj) { return py::repr(obj).cast<std::string>(); }

/// The numpy dtype of a host buffer of `type`. Types numpy lacks are held as
/// raw bits: bfloat16 as uint16, the fp8 types as uint8; int4 values are held
/// one per int8.
py::dtype hostArrayDtype(HostType type) {
  return makeDtype(hostNumpyDtype(type).str().c_str());
}

/// The numpy dtype of a device buffer of `format` (SENINT4 sticks are packed
/// bytes).
py::dtype deviceArrayDtype(DataFormat format) {
  return makeDtype(deviceNumpyDtype(format).str().c_str());
}

/// The shape of the numpy array holding a device tensor: device_size, with
/// the stick dim halved for the packed SENINT4 format.
IntList deviceArrayShape(const SpyreTensorLayout &layout) {
  IntList shape = toList(layout.getDeviceSize());
  unsigned bits = deviceElementBits(layout.getFormat());
  if (bits < 8)
    shape.back() = shape.back() * bits / 8;
  return shape;
}

/// The host type of a `dtype=` argument: a name (symbolizeHostType, then
/// numpy's own spelling such as "f2"), a DataFormats value (its natural host
/// type) or anything numpy.dtype() accepts whose name is a host type.
HostType parseAnyHostType(py::handle obj) {
  if (py::isinstance<DataFormat>(obj))
    return naturalHostType(obj.cast<DataFormat>());
  std::string name;
  if (py::isinstance<py::str>(obj)) {
    name = obj.cast<std::string>();
    if (std::optional<HostType> type = symbolizeHostType(name))
      return *type;
  } else {
    // torch dtypes print as "torch.float16".
    std::string text = py::str(obj).cast<std::string>();
    llvm::StringRef ref(text);
    if (ref.consume_front("torch."))
      if (std::optional<HostType> type = symbolizeHostType(ref))
        return *type;
  }
  py::object dt;
  try {
    dt = numpy().attr("dtype")(obj);
  } catch (py::error_already_set &) {
    if (!name.empty())
      raise("unknown dtype '" + name + "': expected one of " + kDtypeNames);
    raise("unsupported dtype " + reprOf(obj) +
          ": expected a numpy dtype or "
          "one of " +
          kDtypeNames);
  }
  std::string dtName = py::str(dt.attr("name")).cast<std::string>();
  if (std::optional<HostType> type = symbolizeHostType(dtName))
    if (dtName == stringifyHostType(*type))
      return *type;
  if (!name.empty())
    raise("unknown dtype '" + name + "': expected one of " + kDtypeNames);
  raise("unsupported dtype " + dtName + ": expected one of " + kDtypeNames);
}

/// parseAnyHostType for a layout: only the host types device tensors hold
/// (f64 and the fnuz fp8s travel to spyre.run's host code, never into a
/// layout).
HostType parseHostType(py::handle obj) {
  HostType type = parseAnyHostType(obj);
  if (!isComputedOnDevice(type))
    raise("unsupported dtype " + stringifyHostType(type).str() +
          ": expected one of " + kDtypeNames);
  return type;
}

/// The host type of a `dtype=` argument for a layout of `format`: as
/// parseHostType, plus the raw-bits dtypes of hostTypeOfDtype (np.uint16 for
/// bfloat16, np.uint8 for the layout's fp8 format).
std::optional<HostType> hostTypeOfDtype(const py::dtype &dt, DataFormat format);
HostType parseHostTypeFor(py::handle obj, DataFormat format) {
  if (!py::isinstance<DataFormat>(obj)) {
    if (py::isinstance<py::str>(obj))
      if (std::optional<HostType> type =
              symbolizeHostType(obj.cast<std::string>()))
        return *type;
    try {
      py::dtype dt =
          py::dtype::from_args(py::reinterpret_borrow<py::object>(obj));
      if (std::optional<HostType> type = hostTypeOfDtype(dt, format))
        return *type;
    } catch (py::error_already_set &) {
    }
  }
  return parseHostType(obj);
}

/// The host type of a numpy buffer of dtype `dt` moved to or from a device
/// tensor of `format`: the types numpy has map to themselves; uint16 holds
/// bfloat16 bits, uint8 fp8 bits of the layout's fp8 format, int8 int4
/// values for a SENINT4 layout. Extension dtypes (ml_dtypes) named like a
/// host type are accepted too.
std::optional<HostType> hostTypeOfDtype(const py::dtype &dt,
                                        DataFormat format) {
  std::string name = dtypeName(dt);
  if (name == "uint16")
    return format == DataFormat::SEN169_FP16
               ? std::optional<HostType>(HostType::BFloat16)
               : std::nullopt;
  if (name == "uint8") {
    if (format == DataFormat::SEN143_FP8)
      return HostType::Float8E4M3FN;
    if (format == DataFormat::SEN152_FP8)
      return HostType::Float8E5M2;
    return std::nullopt;
  }
  if (name == "int8" && format == DataFormat::SENINT4)
    return HostType::Int4;
  std::optional<HostType> type = symbolizeHostType(name);
  if (!type || name != stringifyHostType(*type) || !isComputedOnDevice(*type) ||
      dt.itemsize() != static_cast<py::ssize_t>(hostElementBytes(*type)))
    return std::nullopt;
  return type;
}

/// Whether `dt` is acceptable as the numpy dtype of a buffer of `type`: the
/// raw-bits dtype, or an extension dtype named like the type.
bool dtypeHolds(const py::dtype &dt, HostType type) {
  if (dtypeEquals(dt, hostArrayDtype(type)))
    return true;
  return dtypeName(dt) == stringifyHostType(type) &&
         dt.itemsize() == static_cast<py::ssize_t>(hostElementBytes(type));
}

ElementArrangement parseArrangement(py::handle obj) {
  if (py::isinstance<ElementArrangement>(obj))
    return obj.cast<ElementArrangement>();
  if (py::isinstance<py::str>(obj)) {
    std::string name = obj.cast<std::string>();
    if (std::optional<ElementArrangement> ea =
            symbolizeElementArrangement(name))
      return *ea;
    raise("unknown element arrangement '" + name +
          "': expected one of STANDARD, DL16_TO_FP32, QFP8CH, EXX2");
  }
  raise("element_arrangement must be an ElementArrangement or a string, not " +
        reprOf(obj));
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

/// `arr` with native byte order (a converted copy if it was not native).
py::array nativeByteOrder(py::array arr) {
  if (arr.dtype().byteorder() != '>' && arr.dtype().byteorder() != '<')
    return arr;
  if (py::bool_(arr.dtype().attr("isnative")))
    return arr;
  py::object dt = arr.dtype().attr("newbyteorder")("=");
  return py::array(arr.attr("astype")(dt));
}

IntList shapeOf(const py::array &arr) {
  IntList shape(arr.ndim());
  for (py::ssize_t i = 0; i < arr.ndim(); ++i)
    shape[i] = arr.shape(i);
  return shape;
}

/// Element strides of `arr`, with the stride of size-1 dims taken from
/// `reference` (numpy leaves them arbitrary); nullopt if some stride is not a
/// positive multiple of the element size.
std::optional<IntList> elementStrides(const py::array &arr,
                                      ArrayRef<int64_t> reference) {
  IntList strides(arr.ndim());
  int64_t item = arr.itemsize();
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
    int64_t s = arr.strides(i);
    if (arr.shape(i) == 1) {
      strides[i] = reference[i];
      continue;
    }
    if (s <= 0 || s % item != 0)
      return std::nullopt;
    strides[i] = s / item;
  }
  return strides;
}

/// The byte range [lo, hi) an array's elements occupy.
std::pair<uintptr_t, uintptr_t> byteRange(const py::array &arr) {
  uintptr_t base = reinterpret_cast<uintptr_t>(arr.data());
  intptr_t lo = 0, hi = 0;
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
    if (arr.shape(i) == 0)
      return {base, base};
    intptr_t extent = (arr.shape(i) - 1) * arr.strides(i);
    (extent < 0 ? lo : hi) += extent;
  }
  return {base + lo, base + hi + arr.itemsize()};
}

bool overlaps(const py::array &a, const py::array &b) {
  auto [alo, ahi] = byteRange(a);
  auto [blo, bhi] = byteRange(b);
  return alo < bhi && blo < ahi;
}

/// Alignment of the arrays this module allocates: one stick. Device tensors
/// are stick-aligned on the device, and the library's streaming stores only
/// write whole cache lines when the destination is (see the report on
/// Stickify.cpp's copyRun).
constexpr int64_t kArrayAlignment = 128;

/// An uninitialised C-contiguous array whose data is kArrayAlignment-aligned
/// (numpy itself only guarantees 16 bytes).
py::array alignedEmpty(const py::dtype &dt, ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t s : shape)
    count *= s;
  int64_t nbytes = count * dt.itemsize();
  py::array_t<uint8_t> buffer(nbytes + kArrayAlignment);
  uintptr_t address = reinterpret_cast<uintptr_t>(buffer.mutable_data());
  int64_t offset = static_cast<int64_t>(
      (kArrayAlignment - address % kArrayAlignment) % kArrayAlignment);
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = dt.itemsize();
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return py::array(dt, dims, strides, buffer.mutable_data() + offset, buffer);
}

/// A C-contiguous copy that keeps rank 0 (np.ascontiguousarray does not).
py::array contiguousCopy(const py::array &arr) {
  return py::array(arr.attr("copy")("C"));
}

//===----------------------------------------------------------------------===//
// Binding a layout to a strided buffer
//===----------------------------------------------------------------------===//

/// `layout` re-expressed for a buffer holding the same logical host tensor
/// as `reference` with element strides `strides`: every device dim keeps the
/// host dim and multiplier it tiles in `reference`. Fails (e.g. the strides
/// make a stride_map entry ambiguous) if the layout cannot be bound that way.
llvm::Expected<BoundLayout> rebind(const BoundLayout &reference,
                                   ArrayRef<int64_t> strides) {
  const HostView &ref = reference.host();
  if (sameList(ref.strides, strides))
    return reference;
  const SpyreTensorLayout &layout = reference.layout();
  SmallVector<int64_t, 8> strideMap(layout.getStrideMap().begin(),
                                    layout.getStrideMap().end());
  for (auto [d, role] : llvm::enumerate(reference.roles()))
    if (role.kind == BoundLayout::DimKind::Piece)
      strideMap[d] = role.multiplier * strides[role.hostDim];
  llvm::Expected<SpyreTensorLayout> moved = SpyreTensorLayout::get(
      layout.getDeviceSize(), strideMap, layout.getFormat(),
      layout.getArrangement(), layout.stickBytes());
  if (!moved)
    return moved.takeError();
  return moved->bind(HostView(ref.sizes, strides));
}

/// A bound layout for a host buffer `arr` (shape already checked against the
/// reference view), copying `arr` to a contiguous buffer if its strides are
/// unusable.
BoundLayout bindArray(const BoundLayout &reference, py::array &arr) {
  if (std::optional<IntList> strides =
          elementStrides(arr, reference.host().strides)) {
    llvm::Expected<BoundLayout> bound = rebind(reference, *strides);
    if (bound)
      return std::move(*bound);
    llvm::consumeError(bound.takeError());
  }
  arr = contiguousCopy(arr);
  return unwrap(
      rebind(reference, *elementStrides(arr, reference.host().strides)));
}

//===----------------------------------------------------------------------===//
// The Python-side layout
//===----------------------------------------------------------------------===//

struct PyLayout {
  SpyreTensorLayout layout;
  /// The host view the layout was built for, if known.
  std::optional<HostView> host;
  /// The host element type the layout was built for.
  HostType hostType;

  DataFormat format() const { return layout.getFormat(); }

  /// The host view of a method call: explicit `size` (and `strides`), else
  /// the stored one.
  HostView view(const std::optional<IntList> &size,
                const std::optional<IntList> &strides, const std::string &what,
                bool takesSize = true) const {
    if (!size) {
      if (strides)
        raise(what + ": strides= needs size=");
      if (!host)
        raise(what +
              " needs the host size: this layout was built from "
              "device_size and stride_map only; pass size=[...] to " +
              (takesSize ? "this call or " : "") + "the constructor");
      return *host;
    }
    if (strides)
      return HostView(*size, *strides);
    if (host && sameList(host->sizes, *size))
      return *host;
    return HostView::contiguous(*size);
  }

  BoundLayout bound(const HostView &view) const {
    return unwrap(layout.bind(view));
  }

  /// The reference view for a host array of `shape`: the stored view (the
  /// shape must match it) or a contiguous view of `shape`.
  HostView referenceFor(ArrayRef<int64_t> shape, const char *what) const {
    if (host) {
      if (!sameList(host->sizes, shape))
        raise(std::string(what) + listStr(shape) +
              " does not match the layout's host size " + listStr(host->sizes));
      return *host;
    }
    return HostView::contiguous(shape);
  }
};

/// The registered enum member (so `layout.device_dtype is
/// DataFormats.SEN169_FP16` holds; pybind11 casts make new instances).
py::object formatObject(DataFormat format) {
  return py::module_::import("spyre._spyre")
      .attr("DataFormats")
      .attr(stringifyDataFormat(format).str().c_str());
}
py::object arrangementObject(ElementArrangement ea) {
  return py::module_::import("spyre._spyre")
      .attr("ElementArrangement")
      .attr(stringifyElementArrangement(ea).str().c_str());
}

std::vector<int32_t> toDimOrder(const IntList &values) {
  std::vector<int32_t> order;
  for (int64_t v : values) {
    if (v < std::numeric_limits<int32_t>::min() ||
        v > std::numeric_limits<int32_t>::max())
      raise("dim_order " + listStr(values) + " has an entry out of range");
    order.push_back(static_cast<int32_t>(v));
  }
  return order;
}

PyLayout makeDefault(const IntList &size, py::handle dtype,
                     const std::optional<IntList> &dimOrder,
                     const std::optional<IntList> &strides,
                     int64_t stickBytes) {
  HostType type = parseHostType(dtype);
  HostView host =
      strides ? HostView(size, *strides) : HostView::contiguous(size);
  std::optional<ArrayRef<int32_t>> order;
  std::vector<int32_t> orderStorage;
  if (dimOrder) {
    orderStorage = toDimOrder(*dimOrder);
    order = ArrayRef<int32_t>(orderStorage);
  }
  SpyreTensorLayout layout =
      unwrap(SpyreTensorLayout::getDefault(host, type, order, stickBytes));
  return PyLayout{layout, host, type};
}

PyLayout makeDirect(const IntList &deviceSize, const IntList &strideMap,
                    py::handle dtype, py::handle arrangement,
                    const std::optional<IntList> &size,
                    const std::optional<IntList> &strides, int64_t stickBytes) {
  HostType type = parseHostType(dtype);
  ElementArrangement ea = arrangement.is_none() ? ElementArrangement::Standard
                                                : parseArrangement(arrangement);
  SpyreTensorLayout layout = unwrap(SpyreTensorLayout::get(
      deviceSize, strideMap, deviceFormatFor(type), ea, stickBytes));
  std::optional<HostView> host;
  if (strides && !size)
    raise("strides= needs size=");
  if (size) {
    host = strides ? HostView(*size, *strides) : HostView::contiguous(*size);
    (void)unwrap(layout.bind(*host));
  }
  return PyLayout{layout, host, type};
}

//===----------------------------------------------------------------------===//
// stickify / unstickify
//===----------------------------------------------------------------------===//

py::array toDevice(const PyLayout &self, py::array arr, double padValue,
                   std::optional<py::array> out, unsigned threads) {
  const SpyreTensorLayout &layout = self.layout;
  DataFormat format = self.format();
  arr = nativeByteOrder(arr);

  IntList shape = shapeOf(arr);
  BoundLayout reference =
      self.bound(self.referenceFor(shape, "array of shape "));

  std::optional<HostType> type = hostTypeOfDtype(arr.dtype(), format);
  if (!type || (deviceFormatFor(*type) == format && *type != self.hostType))
    raise("array dtype " + dtypeName(arr.dtype()) +
          " does not match the layout's host dtype " +
          stringifyHostType(self.hostType).str() + " (expected a " +
          dtypeName(hostArrayDtype(self.hostType)) + " array)");
  // A host type of another device format is left to stickify, which reports
  // the mismatch.

  py::dtype devDtype = deviceArrayDtype(format);
  IntList devShape = deviceArrayShape(layout);
  py::array device;
  if (out) {
    device = *out;
    if (!dtypeEquals(device.dtype(), devDtype) ||
        !sameList(shapeOf(device), devShape))
      raise("out= must be a " + dtypeName(devDtype) + " array of shape " +
            listStr(devShape) + " in the device's byte order, not a " +
            dtypeName(device.dtype()) +
            (py::bool_(device.dtype().attr("isnative")) ? ""
                                                        : " (byte-swapped)") +
            " array of shape " + listStr(shapeOf(device)));
    if (!(device.flags() & py::array::c_style))
      raise("out= must be C-contiguous");
    if (!device.writeable())
      raise("out= must be writeable");
    if (overlaps(device, arr))
      raise("out= overlaps the host array");
  } else {
    device = alignedEmpty(devDtype, devShape);
  }

  BoundLayout bound = bindArray(reference, arr);
  const void *src = arr.data();
  void *dst = device.mutable_data();
  std::optional<std::string> error;
  {
    py::gil_scoped_release nogil;
    if (llvm::Error err = stickify(bound, *type, src, dst, padValue, threads))
      error = llvm::toString(std::move(err));
  }
  if (error)
    raise(*error);
  return device;
}

py::array fromDevice(const PyLayout &self, py::array device,
                     const std::optional<IntList> &size, py::handle dtype,
                     std::optional<py::array> out, unsigned threads) {
  const SpyreTensorLayout &layout = self.layout;
  DataFormat format = self.format();

  py::dtype devDtype = deviceArrayDtype(format);
  IntList devShape = deviceArrayShape(layout);
  device = nativeByteOrder(device);
  if (!dtypeEquals(device.dtype(), devDtype) ||
      !sameList(shapeOf(device), devShape))
    raise("the device array must be a " + dtypeName(devDtype) +
          " array of shape " + listStr(devShape) + " (a " +
          stringifyDataFormat(format).str() + " tensor of device_size " +
          listStr(layout.getDeviceSize()) + "), not a " +
          dtypeName(device.dtype()) + " array of shape " +
          listStr(shapeOf(device)));
  if (!(device.flags() & py::array::c_style))
    device = contiguousCopy(device);

  // The host view.
  HostView ref;
  if (size)
    ref = self.referenceFor(*size, "size ");
  else if (out)
    ref = self.referenceFor(shapeOf(*out), "out= of shape ");
  else if (self.host)
    ref = *self.host;
  else
    raise("from_device needs the host size: pass size=[...]");
  BoundLayout reference = self.bound(ref);

  // The host type.
  HostType type;
  if (!dtype.is_none()) {
    type = parseHostTypeFor(dtype, format);
  } else if (out) {
    std::optional<HostType> fromOut = hostTypeOfDtype(out->dtype(), format);
    if (!fromOut)
      raise("out= has unsupported dtype " + dtypeName(out->dtype()));
    type = *fromOut;
  } else {
    type = naturalHostType(format);
  }
  py::dtype hostDtype = hostArrayDtype(type);

  py::array host;
  py::array target; // what unstickify writes: `host` or a temporary
  if (out) {
    host = *out;
    if (!dtypeHolds(host.dtype(), type))
      raise("out= must be a " + dtypeName(hostDtype) + " array for host " +
            "dtype " + stringifyHostType(type).str() + ", not " +
            dtypeName(host.dtype()));
    if (!sameList(shapeOf(host), ref.sizes))
      raise("out= of shape " + listStr(shapeOf(host)) +
            " does not match the host size " + listStr(ref.sizes));
    if (!host.writeable())
      raise("out= must be writeable");
    if (overlaps(host, device))
      raise("out= overlaps the device array");
    // A byte-swapped out= (big-endian on this host) is filled through a
    // native buffer; NumPy's assignment below swaps the bytes.
    target = py::bool_(host.dtype().attr("isnative"))
                 ? host
                 : alignedEmpty(hostDtype, ref.sizes);
  } else {
    host = alignedEmpty(hostDtype, ref.sizes);
    target = host;
  }

  std::optional<BoundLayout> bound;
  if (std::optional<IntList> strides = elementStrides(target, ref.strides)) {
    llvm::Expected<BoundLayout> b = rebind(reference, *strides);
    if (b)
      bound = std::move(*b);
    else
      llvm::consumeError(b.takeError());
  }
  if (!bound) {
    // An out= buffer with unusable strides: go through a contiguous one.
    target = alignedEmpty(target.dtype(), ref.sizes);
    bound = unwrap(rebind(reference, *elementStrides(target, ref.strides)));
  }

  const void *src = device.data();
  void *dst = target.mutable_data();
  std::optional<std::string> error;
  {
    py::gil_scoped_release nogil;
    if (llvm::Error err = unstickify(*bound, type, src, dst, threads))
      error = llvm::toString(std::move(err));
  }
  if (error)
    raise(*error);
  if (!target.is(host))
    host[py::ellipsis()] = target;
  return host;
}

//===----------------------------------------------------------------------===//
// Other methods
//===----------------------------------------------------------------------===//

std::vector<DmaNest> dma(const PyLayout &self,
                         const std::optional<IntList> &size,
                         const std::optional<IntList> &strides,
                         const std::string &direction) {
  DmaDirection dir;
  if (direction == "host_to_device")
    dir = DmaDirection::HostToDevice;
  else if (direction == "device_to_host")
    dir = DmaDirection::DeviceToHost;
  else
    raise("direction must be 'host_to_device' or 'device_to_host', not '" +
          direction + "'");
  BoundLayout bound = self.bound(self.view(size, strides, "dma()"));
  DmaPlan plan = bound.dmaPlan(dir);
  return std::vector<DmaNest>(plan.nests.begin(), plan.nests.end());
}

py::tuple restickify(const PyLayout &self, int64_t newStickDim,
                     const std::optional<IntList> &size) {
  HostView view = self.view(size, std::nullopt, "restickify");
  BoundLayout bound = self.bound(view);
  if (newStickDim < std::numeric_limits<int>::min() ||
      newStickDim > std::numeric_limits<int>::max())
    raise("cannot restickify to host dim " + std::to_string(newStickDim));
  SpyreTensorLayout target =
      unwrap(restickifyTarget(bound, static_cast<int>(newStickDim)));
  PyLayout result{target, view, self.hostType};
  return py::make_tuple(result, restickifyCost(self.layout));
}

py::tuple tupleOf(ArrayRef<int64_t> values) {
  return py::tuple(py::cast(toList(values)));
}

std::string nestRepr(const DmaNest &nest) {
  return "DmaNest(" + nest.str() +
         ", device_offset=" + std::to_string(nest.deviceOffset) +
         ", host_offset=" + std::to_string(nest.hostOffset) + ")";
}

} // namespace

// spyre.quantize / spyre.dequantize (QuantBindings.cpp).
void bindQuant(py::module_ &m);

PYBIND11_MODULE(_spyre, m) {
  m.doc() = "Spyre tensor layouts: the layout algebra of spyre-mlir";

  py::enum_<DataFormat>(m, "DataFormats",
                        "Device data formats (the reference stack's "
                        "DataFormats).")
      .value("SEN169_FP16", DataFormat::SEN169_FP16)
      .value("IEEE_FP32", DataFormat::IEEE_FP32)
      .value("IEEE_INT32", DataFormat::IEEE_INT32)
      .value("SENINT8", DataFormat::SENINT8)
      .value("SEN143_FP8", DataFormat::SEN143_FP8)
      .value("SEN152_FP8", DataFormat::SEN152_FP8)
      .value("SENINT4", DataFormat::SENINT4)
      .def_property_readonly(
          "element_bits", [](DataFormat f) { return deviceElementBits(f); },
          "Width of one device element in bits.")
      .def(
          "elems_per_stick",
          [](DataFormat f, int64_t stickBytes) {
            return elemsPerStick(f, stickBytes);
          },
          py::arg("stick_bytes") = kDefaultStickBytes,
          "Elements in one stick (0 if the stick does not hold a whole "
          "number).");

  py::enum_<ElementArrangement>(m, "ElementArrangement",
                                "How device coordinates are arranged inside "
                                "sticks.")
      .value("STANDARD", ElementArrangement::Standard)
      .value("DL16_TO_FP32", ElementArrangement::DL16ToFP32)
      .value("QFP8CH", ElementArrangement::QFP8Ch)
      .value("EXX2", ElementArrangement::EXX2);

  py::class_<DmaNest>(m, "DmaNest",
                      "One loop nest of a host <-> device transfer, "
                      "outermost loop first.")
      .def_property_readonly("ranges",
                             [](const DmaNest &n) {
                               IntList v;
                               for (const DmaLoop &l : n.loops)
                                 v.push_back(l.range);
                               return v;
                             })
      .def_property_readonly("device_strides",
                             [](const DmaNest &n) {
                               IntList v;
                               for (const DmaLoop &l : n.loops)
                                 v.push_back(l.deviceStride);
                               return v;
                             })
      .def_property_readonly("host_strides",
                             [](const DmaNest &n) {
                               IntList v;
                               for (const DmaLoop &l : n.loops)
                                 v.push_back(l.hostStride);
                               return v;
                             })
      .def_readonly("device_offset", &DmaNest::deviceOffset)
      .def_readonly("host_offset", &DmaNest::hostOffset)
      .def_property_readonly("num_elements", &DmaNest::numElements)
      .def(
          "to_dict",
          [](const DmaNest &n) {
            py::dict d;
            IntList r, ds, hs;
            for (const DmaLoop &l : n.loops) {
              r.push_back(l.range);
              ds.push_back(l.deviceStride);
              hs.push_back(l.hostStride);
            }
            d["ranges"] = r;
            d["device_strides"] = ds;
            d["host_strides"] = hs;
            d["device_offset"] = n.deviceOffset;
            d["host_offset"] = n.hostOffset;
            return d;
          },
          "The nest as a dict (ranges, device_strides, host_strides, "
          "device_offset, host_offset).")
      .def("__str__", &DmaNest::str,
           "The RFC notation ((ranges), (device strides), (host strides)).")
      .def("__repr__", &nestRepr)
      .def(
          "__eq__", [](const DmaNest &a, const DmaNest &b) { return a == b; },
          py::is_operator())
      .def("__hash__", [](const DmaNest &n) {
        py::list loops;
        for (const DmaLoop &l : n.loops)
          loops.append(py::make_tuple(l.range, l.deviceStride, l.hostStride));
        return py::hash(
            py::make_tuple(py::tuple(loops), n.deviceOffset, n.hostOffset));
      });

  py::class_<PyLayout>(m, "SpyreTensorLayout", R"doc(
A Spyre tensor layout.

SpyreTensorLayout(size, dtype, dim_order=None, *, strides=None, stick_bytes=128)
    The generic stick layout of a host tensor of `size` (row-major, or with
    the element `strides` given). `dim_order` lists host dims: its last entry
    is the stick dim, its first the tile-row dim; a trailing -1 asks for a
    sparse layout. Default: spyre.default_dim_order(size).

SpyreTensorLayout(*, device_size, stride_map, dtype, element_arrangement=None,
                  size=None, strides=None, stick_bytes=128)
    The direct form. Without `size`, the layout knows no host tensor:
    dim_map, dma(), restickify() then need a size, and to_device() binds it
    to the array's shape.

`dtype` is a host element type: a numpy dtype or one of the names float16,
bfloat16, float32, int8, int32, int64, float8_e4m3fn, float8_e5m2, bool, int4.
)doc")
      .def(py::init(&makeDefault), py::arg("size"), py::arg("dtype"),
           py::arg("dim_order") = py::none(), py::kw_only(),
           py::arg("strides") = py::none(),
           py::arg("stick_bytes") = kDefaultStickBytes)
      .def(py::init(&makeDirect), py::kw_only(), py::arg("device_size"),
           py::arg("stride_map"), py::arg("dtype"),
           py::arg("element_arrangement") = py::none(),
           py::arg("size") = py::none(), py::arg("strides") = py::none(),
           py::arg("stick_bytes") = kDefaultStickBytes)
      .def_property_readonly(
          "device_size",
          [](const PyLayout &s) { return toList(s.layout.getDeviceSize()); })
      .def_property_readonly(
          "stride_map",
          [](const PyLayout &s) { return toList(s.layout.getStrideMap()); })
      .def_property_readonly(
          "device_dtype",
          [](const PyLayout &s) { return formatObject(s.format()); })
      .def_property_readonly("element_arrangement",
                             [](const PyLayout &s) {
                               return arrangementObject(
                                   s.layout.getArrangement());
                             })
      .def_property_readonly(
          "host_dtype",
          [](const PyLayout &s) { return stringifyHostType(s.hostType).str(); },
          "Name of the host element type the layout was built for.")
      .def_property_readonly(
          "size",
          [](const PyLayout &s) -> std::optional<IntList> {
            if (!s.host)
              return std::nullopt;
            return toList(s.host->sizes);
          },
          "The host size the layout was built for (None if unknown).")
      .def_property_readonly(
          "strides",
          [](const PyLayout &s) -> std::optional<IntList> {
            if (!s.host)
              return std::nullopt;
            return toList(s.host->strides);
          },
          "The host strides (in elements) the layout was built for.")
      .def_property_readonly(
          "elems_per_stick",
          [](const PyLayout &s) { return s.layout.elemsPerStick(); })
      .def_property_readonly(
          "stick_bytes",
          [](const PyLayout &s) { return s.layout.stickBytes(); })
      .def_property_readonly(
          "num_sticks", [](const PyLayout &s) { return s.layout.numSticks(); })
      .def_property_readonly(
          "device_bytes",
          [](const PyLayout &s) { return s.layout.deviceBytes(); })
      .def_property_readonly(
          "device_strides",
          [](const PyLayout &s) { return toList(s.layout.deviceStrides()); },
          "Row-major strides (elements) of the device tensor.")
      .def_property_readonly(
          "dim_map",
          [](const PyLayout &s) {
            BoundLayout b =
                s.bound(s.view(std::nullopt, std::nullopt, "dim_map", false));
            return toList(ArrayRef<int32_t>(unwrap(b.dimMap())));
          },
          "The legacy dim_map (host dim per device dim, -1 for synthetic "
          "dims). Needs the host size.")
      .def_property_readonly(
          "dim_order",
          [](const PyLayout &s) {
            BoundLayout b =
                s.bound(s.view(std::nullopt, std::nullopt, "dim_order", false));
            return toList(ArrayRef<int32_t>(unwrap(b.dimOrder())));
          },
          "The dim_order that rebuilds this layout. Needs the host size.")
      .def("dma", &dma, py::arg("size") = py::none(), py::kw_only(),
           py::arg("strides") = py::none(),
           py::arg("direction") = "host_to_device",
           "The DMA loop nests (list of DmaNest) of a transfer of the host "
           "tensor: a main nest plus remainder nests for partial sticks.")
      .def(
          "empty_device",
          [](const PyLayout &s) {
            return alignedEmpty(deviceArrayDtype(s.format()),
                                deviceArrayShape(s.layout));
          },
          "An uninitialised device array for to_device(out=...): the device "
          "dtype and shape, C-contiguous, aligned to a stick (128 bytes). "
          "Large transfers into buffers that are not 64-byte aligned are "
          "much slower.")
      .def("to_device", &toDevice, py::arg("array"), py::arg("pad_value") = 0.0,
           py::kw_only(), py::arg("out") = py::none(), py::arg("threads") = 0,
           "Stickify a host array into a device array shaped device_size "
           "(packed bytes for SENINT4), padding with pad_value. threads=0 "
           "uses every hardware thread for transfers of 8 MiB or more.")
      .def("from_device", &fromDevice, py::arg("device_array"),
           py::arg("size") = py::none(), py::kw_only(),
           py::arg("dtype") = py::none(), py::arg("out") = py::none(),
           py::arg("threads") = 0,
           "Unstickify a device array into a host array of `size` (default: "
           "the layout's host size). The host dtype is the natural one of "
           "the device format unless dtype= (or out=) says otherwise.")
      .def("restickify", &restickify, py::arg("new_stick_dim"),
           py::arg("size") = py::none(),
           "(target layout, cost in elements) of moving the stick to host "
           "dim new_stick_dim.")
      .def("__repr__", [](const PyLayout &s) { return s.layout.str(); })
      .def(
          "__eq__",
          [](const PyLayout &a, const PyLayout &b) {
            return a.layout == b.layout;
          },
          py::is_operator())
      .def(
          "__ne__",
          [](const PyLayout &a, const PyLayout &b) {
            return a.layout != b.layout;
          },
          py::is_operator())
      .def("__hash__", [](const PyLayout &s) {
        return py::hash(py::make_tuple(
            tupleOf(s.layout.getDeviceSize()), tupleOf(s.layout.getStrideMap()),
            static_cast<int>(s.layout.getFormat()),
            static_cast<int>(s.layout.getArrangement())));
      });

  m.def(
      "default_dim_order",
      [](const IntList &size) {
        return toList(
            ArrayRef<int32_t>(SpyreTensorLayout::defaultDimOrder(size)));
      },
      py::arg("size"),
      "The default dim_order of a host size: [0, ..., n-1] with size-1 dims "
      "moved just before the stick dim.");
  m.def(
      "restickify",
      [](const PyLayout &layout, std::optional<IntList> size,
         int64_t newStickDim) { return restickify(layout, newStickDim, size); },
      py::arg("layout"), py::arg("size"), py::arg("new_stick_dim"),
      "(target layout, cost in elements) of moving the stick of `layout` "
      "(for a host tensor of `size`; None: the layout's own) to host dim "
      "new_stick_dim.");
  m.def(
      "elems_per_stick",
      [](py::handle dtype, int64_t stickBytes) {
        DataFormat format = py::isinstance<DataFormat>(dtype)
                                ? dtype.cast<DataFormat>()
                                : deviceFormatFor(parseHostType(dtype));
        return elemsPerStick(format, stickBytes);
      },
      py::arg("dtype"), py::arg("stick_bytes") = kDefaultStickBytes,
      "Elements per stick of a host dtype's (or a DataFormats') device "
      "format.");
  m.def(
      "device_format",
      [](py::handle dtype) {
        return formatObject(deviceFormatFor(parseHostType(dtype)));
      },
      py::arg("dtype"), "The device format (DataFormats) of a host dtype.");
  m.attr("DEFAULT_STICK_BYTES") = kDefaultStickBytes;
  m.attr("MAX_HOST_RANK") = kMaxHostRank;
  bindQuant(m);
}
