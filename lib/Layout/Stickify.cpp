//===- Stickify.cpp - Host <-> device buffer conversion -------------------===//
//
// Both directions walk the layout's DMA nests. The loops of a nest are
// re-ordered so the host side is walked sequentially (the device side then
// advances through a few sequential streams, one per stick column), and the
// innermost run, a whole stick in the common case, is copied with fixed-size
// moves; large transfers write with non-temporal stores so the destination is
// not read for ownership. Everything that changes representation (bf16, bool,
// i64, i4) takes the per-element path.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Stickify.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::SmallVector;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {

/// Calls fn(deviceOffset, hostOffset, range, deviceStride, hostStride) for
/// every innermost run of a nest.
template <typename Fn>
void forEachRun(ArrayRef<DmaLoop> loops, int64_t deviceBase, int64_t hostBase,
                Fn &&fn) {
  if (loops.empty()) {
    fn(deviceBase, hostBase, int64_t(1), int64_t(1), int64_t(1));
    return;
  }
  const DmaLoop &inner = loops.back();
  ArrayRef<DmaLoop> outer = loops.drop_back();
  SmallVector<int64_t, 8> index(outer.size(), 0);
  int64_t device = deviceBase, host = hostBase;
  while (true) {
    fn(device, host, inner.range, inner.deviceStride, inner.hostStride);
    int k = static_cast<int>(outer.size()) - 1;
    for (; k >= 0; --k) {
      device += outer[k].deviceStride;
      host += outer[k].hostStride;
      if (++index[k] < outer[k].range)
        break;
      device -= outer[k].deviceStride * outer[k].range;
      host -= outer[k].hostStride * outer[k].range;
      index[k] = 0;
    }
    if (k < 0)
      return;
  }
}

/// Keeps the innermost loop (the run) and orders the others by decreasing
/// stride on the side read, so the source is walked front to back (the
/// host's for a stickify, the device's for an unstickify): the prefetcher
/// follows the reads, and the scattered writes of whole runs cost less
/// than scattered reads (unstickify f16 4096x4096: 0.57x -> 1.03x memcpy).
SmallVector<DmaLoop, 8> sourceMajorOrder(ArrayRef<DmaLoop> loops,
                                         bool toDevice) {
  SmallVector<DmaLoop, 8> ordered(loops.begin(), loops.end());
  if (ordered.size() > 2)
    std::stable_sort(ordered.begin(), ordered.end() - 1,
                     [&](const DmaLoop &a, const DmaLoop &b) {
                       return toDevice ? a.hostStride > b.hostStride
                                       : a.deviceStride > b.deviceStride;
                     });
  return ordered;
}

/// Transfers larger than this bypass the cache on the write side.
constexpr int64_t kStreamingThresholdBytes = 4 << 20;
/// Transfers larger than this use every hardware thread by default (the
/// threads start in tens of microseconds; the copy takes hundreds).
constexpr int64_t kParallelThresholdBytes = 8 << 20;

/// Nests smaller than this are not worth splitting across threads.
constexpr int64_t kParallelMinNestBytes = 1 << 20;

/// Runs fn(lo, hi) over [0, n) in contiguous chunks: one per worker of
/// `pool` plus one on the calling thread (everything on the caller without a
/// pool).
template <typename Fn>
void parallelChunks(int64_t n, llvm::ThreadPoolInterface *pool, Fn fn) {
  unsigned parts = pool ? pool->getMaxConcurrency() + 1 : 1;
  if (parts <= 1 || n < 2) {
    fn(int64_t(0), n);
    return;
  }
  int64_t chunk = llvm::divideCeil(n, static_cast<int64_t>(parts));
  llvm::ThreadPoolTaskGroup group(*pool);
  for (int64_t lo = chunk; lo < n; lo += chunk)
    group.async([=] { fn(lo, std::min(n, lo + chunk)); });
  fn(int64_t(0), std::min(n, chunk));
  group.wait();
}

/// Splits the outermost loop of `loops` into `parts` chunks run in parallel;
/// fn(loops, deviceOffset, hostOffset) gets each chunk's nest.
template <typename Fn>
void parallelNest(ArrayRef<DmaLoop> loops, int64_t deviceOffset,
                  int64_t hostOffset, llvm::ThreadPoolInterface *pool, Fn fn) {
  if (loops.size() < 2 || !pool || loops.front().range < 2) {
    fn(loops, deviceOffset, hostOffset);
    return;
  }
  const DmaLoop outer = loops.front();
  parallelChunks(outer.range, pool, [&](int64_t lo, int64_t hi) {
    SmallVector<DmaLoop, 8> chunk(loops.begin(), loops.end());
    chunk.front().range = hi - lo;
    fn(ArrayRef<DmaLoop>(chunk), deviceOffset + lo * outer.deviceStride,
       hostOffset + lo * outer.hostStride);
  });
}

/// Copies `bytes` contiguous bytes; streaming stores when asked and the run
/// covers whole cache lines (a run straddling lines would flush partial
/// lines, far slower than ordinary stores).
inline void copyRun(uint8_t *dst, const uint8_t *src, int64_t bytes,
                    bool stream) {
#if defined(__SSE2__)
  if (stream && (reinterpret_cast<uintptr_t>(dst) & 63) == 0 &&
      bytes % 64 == 0) {
    for (int64_t i = 0; i < bytes; i += 64) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
      __m128i b =
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 16));
      __m128i c =
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 32));
      __m128i d =
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 48), d);
    }
    return;
  }
#endif
  (void)stream;
  // One stick, the common run of a default layout whose rows are not whole
  // sticks apart: a fixed-size copy the compiler inlines (a call per stick
  // costs as much as the copy).
  if (bytes == kDefaultStickBytes) {
    std::memcpy(dst, src, kDefaultStickBytes);
    return;
  }
  std::memcpy(dst, src, bytes);
}

inline void streamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

template <typename T>
void copyStrided(uint8_t *dst, int64_t dstStride, const uint8_t *src,
                 int64_t srcStride, int64_t count) {
  T *d = reinterpret_cast<T *>(dst);
  const T *s = reinterpret_cast<const T *>(src);
  for (int64_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, s + i * srcStride, sizeof(T));
    std::memcpy(d + i * dstStride, &value, sizeof(T));
  }
}

/// Calls fn(deviceOffset, hostOffset) for every iteration of `loops`.
template <typename Fn>
void forEachOffset(ArrayRef<DmaLoop> loops, int64_t deviceBase,
                   int64_t hostBase, Fn &&fn) {
  SmallVector<DmaLoop, 8> withUnitRun(loops.begin(), loops.end());
  withUnitRun.push_back({1, 1, 1});
  forEachRun(withUnitRun, deviceBase, hostBase,
             [&](int64_t dev, int64_t host, int64_t, int64_t, int64_t) {
               fn(dev, host);
             });
}

/// Columns per block of the blocked transpose: a block of sticks (256 x 128
/// bytes) fills L1, and each host row is read in 512-byte runs the
/// prefetchers follow (64 columns, 128-byte runs: 0.4x memcpy; 256: 0.6x).
constexpr int64_t kTransposeBlock = 256;

#if defined(__SSE2__)
/// Transposes the 8x8 matrix of 16-bit elements in `v` (row i in v[i]) in
/// place: three rounds of interleaving 16-, 32- and 64-bit halves.
inline void transpose8x8(__m128i v[8]) {
  __m128i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm_unpacklo_epi16(v[2 * i], v[2 * i + 1]);
    t[2 * i + 1] = _mm_unpackhi_epi16(v[2 * i], v[2 * i + 1]);
  }
  for (int i = 0; i < 2; ++i)
    for (int h = 0; h < 2; ++h) {
      u[4 * i + 2 * h] = _mm_unpacklo_epi32(t[4 * i + h], t[4 * i + h + 2]);
      u[4 * i + 2 * h + 1] = _mm_unpackhi_epi32(t[4 * i + h], t[4 * i + h + 2]);
    }
  for (int j = 0; j < 4; ++j) {
    v[2 * j] = _mm_unpacklo_epi64(u[j], u[j + 4]);
    v[2 * j + 1] = _mm_unpackhi_epi64(u[j], u[j + 4]);
  }
}
#endif

/// Copies the `rows` x `columns` block between the host (rows `rowStride`
/// apart) and the device (columns `stickStride` apart), element by element.
template <typename T>
void transposeScalar(T *device, T *host, int64_t rows, int64_t rowStride,
                     int64_t columns, int64_t stickStride, bool toDevice) {
  // Host rows are read (written) front to back; the block's sticks, a few
  // KiB spread over distinct cache sets, stay in L1 across the rows. (The
  // other order walks the host 8 KiB apart and thrashes one set.)
  for (int64_t r = 0; r < rows; ++r) {
    T *h = host + r * rowStride;
    T *d = device + r;
    if (toDevice)
      for (int64_t j = 0; j < columns; ++j)
        d[j * stickStride] = h[j];
    else
      for (int64_t j = 0; j < columns; ++j)
        h[j] = d[j * stickStride];
  }
}

/// A stick that gathers a host column: `rows` elements `rowStride` apart on
/// the host land contiguously on the device, for `columns` host-contiguous
/// columns whose sticks are `stickStride` apart. Walked in blocks of columns
/// so every host line read is used for a whole block of sticks; 16-bit
/// elements move as 8x8 tiles transposed in SSE2 registers (eight 16-byte
/// loads and stores instead of 64 scalar ones), the edges element by
/// element.
template <typename T>
void transposeBlock(T *device, T *host, int64_t rows, int64_t rowStride,
                    int64_t columns, int64_t stickStride, bool toDevice,
                    bool stream) {
  for (int64_t c0 = 0; c0 < columns; c0 += kTransposeBlock) {
    int64_t count = std::min(kTransposeBlock, columns - c0);
    int64_t fullRows = 0, fullColumns = 0;
#if defined(__SSE2__)
    if constexpr (sizeof(T) == 2) {
      fullRows = rows / 8 * 8;
      fullColumns = count / 8 * 8;
      // A stickify writes eight sticks at a time, each whole (all its rows)
      // before the next eight, and a large one streams them past the cache;
      // an unstickify walks the host rows front to back.
      bool streaming = stream && toDevice &&
                       (reinterpret_cast<uintptr_t>(device) & 15) == 0 &&
                       (stickStride * sizeof(T)) % 16 == 0;
      int64_t outer = toDevice ? fullColumns : fullRows;
      int64_t inner = toDevice ? fullRows : fullColumns;
      for (int64_t o = 0; o < outer; o += 8)
        for (int64_t i8 = 0; i8 < inner; i8 += 8) {
          int64_t c = toDevice ? o : i8, r = toDevice ? i8 : o;
          T *h = host + r * rowStride + c0 + c;
          T *d = device + (c0 + c) * stickStride + r;
          __m128i v[8];
          for (int i = 0; i < 8; ++i)
            v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(
                toDevice ? h + i * rowStride : d + i * stickStride));
          transpose8x8(v);
          if (streaming) {
            for (int i = 0; i < 8; ++i)
              _mm_stream_si128(reinterpret_cast<__m128i *>(d + i * stickStride),
                               v[i]);
            continue;
          }
          for (int i = 0; i < 8; ++i)
            _mm_storeu_si128(
                reinterpret_cast<__m128i *>(toDevice ? d + i * stickStride
                                                     : h + i * rowStride),
                v[i]);
        }
    }
#endif
    (void)stream;
    // The edges: the last rows of every column, the last columns of the
    // tiled rows.
    T *h = host + c0;
    T *d = device + c0 * stickStride;
    transposeScalar(d + fullRows, h + fullRows * rowStride, rows - fullRows,
                    rowStride, count, stickStride, toDevice);
    transposeScalar(d + fullColumns * stickStride, h + fullColumns, fullRows,
                    rowStride, count - fullColumns, stickStride, toDevice);
  }
}

/// For a nest whose run gathers along the host (device stride 1, host
/// stride != 1), the outer loop that is contiguous on the host, if any.
std::optional<size_t> transposePartner(ArrayRef<DmaLoop> loops) {
  if (loops.size() < 2 || loops.back().deviceStride != 1 ||
      loops.back().hostStride == 1)
    return std::nullopt;
  for (size_t k = 0; k + 1 < loops.size(); ++k)
    if (loops[k].hostStride == 1)
      return k;
  return std::nullopt;
}

template <typename T>
void copyTransposed(const DmaNest &nest, size_t partner, uint8_t *device,
                    uint8_t *host, bool toDevice, bool stream,
                    llvm::ThreadPoolInterface *pool) {
  const DmaLoop &run = nest.loops.back();
  const DmaLoop &column = nest.loops[partner];
  SmallVector<DmaLoop, 8> others;
  for (size_t k = 0; k + 1 < nest.loops.size(); ++k)
    if (k != partner)
      others.push_back(nest.loops[k]);
  // Threads take disjoint blocks of columns.
  int64_t blocks = llvm::divideCeil(column.range, kTransposeBlock);
  parallelChunks(blocks, pool, [&](int64_t lo, int64_t hi) {
    int64_t first = lo * kTransposeBlock;
    int64_t count = std::min(column.range, hi * kTransposeBlock) - first;
    forEachOffset(others, nest.deviceOffset + first * column.deviceStride,
                  nest.hostOffset + first * column.hostStride,
                  [&](int64_t dev, int64_t hostOff) {
                    transposeBlock(reinterpret_cast<T *>(device) + dev,
                                   reinterpret_cast<T *>(host) + hostOff,
                                   run.range, run.hostStride, count,
                                   column.deviceStride, toDevice, stream);
                  });
    if (stream)
      streamFence();
  });
}

/// Copies every run of `plan` between buffers of the same element width.
/// `toDevice` selects the direction; offsets are in elements.
void copySameWidth(const DmaPlan &plan, unsigned elemBytes, uint8_t *device,
                   const uint8_t *hostIn, uint8_t *hostOut, bool toDevice,
                   bool stream, llvm::ThreadPoolInterface *workers) {
  for (const DmaNest &nest : plan.nests) {
    llvm::ThreadPoolInterface *pool =
        nest.numElements() * elemBytes >= kParallelMinNestBytes ? workers
                                                                : nullptr;
    if (std::optional<size_t> partner = transposePartner(nest.loops)) {
      uint8_t *host = toDevice ? const_cast<uint8_t *>(hostIn) : hostOut;
      switch (elemBytes) {
      case 1:
        copyTransposed<uint8_t>(nest, *partner, device, host, toDevice, stream,
                                pool);
        continue;
      case 2:
        copyTransposed<uint16_t>(nest, *partner, device, host, toDevice, stream,
                                 pool);
        continue;
      case 4:
        copyTransposed<uint32_t>(nest, *partner, device, host, toDevice, stream,
                                 pool);
        continue;
      default:
        break;
      }
    }
    SmallVector<DmaLoop, 8> loops = sourceMajorOrder(nest.loops, toDevice);
    parallelNest(
        loops, nest.deviceOffset, nest.hostOffset, pool,
        [&](ArrayRef<DmaLoop> chunk, int64_t devBase, int64_t hostBase) {
          // Contiguous runs (a stick, or a row of them): the loop around
          // them runs tight, one copyRun per step (a call through the nest
          // walk per run of one stick cost as much as the copy).
          const DmaLoop &run = chunk.back();
          if (chunk.size() >= 2 && run.deviceStride == 1 &&
              run.hostStride == 1) {
            int64_t bytes = run.range * elemBytes;
            forEachRun(chunk.drop_back(), devBase, hostBase,
                       [&](int64_t dev, int64_t host, int64_t range, int64_t ds,
                           int64_t hs) {
                         uint8_t *d = device + dev * elemBytes;
                         uint8_t *h =
                             toDevice ? const_cast<uint8_t *>(hostIn) : hostOut;
                         h += host * elemBytes;
                         uint8_t *dst = toDevice ? d : h;
                         const uint8_t *src = toDevice ? h : d;
                         int64_t dstStep = (toDevice ? ds : hs) * elemBytes;
                         int64_t srcStep = (toDevice ? hs : ds) * elemBytes;
                         for (int64_t i = 0; i < range; ++i)
                           copyRun(dst + i * dstStep, src + i * srcStep, bytes,
                                   stream);
                       });
            if (stream)
              streamFence();
            return;
          }
          forEachRun(
              chunk, devBase, hostBase,
              [&](int64_t dev, int64_t host, int64_t range, int64_t ds,
                  int64_t hs) {
                uint8_t *d = device + dev * elemBytes;
                if (ds == 1 && hs == 1) {
                  if (toDevice)
                    copyRun(d, hostIn + host * elemBytes, range * elemBytes,
                            stream);
                  else
                    copyRun(hostOut + host * elemBytes, d, range * elemBytes,
                            stream);
                  return;
                }
                uint8_t *dst = toDevice ? d : hostOut + host * elemBytes;
                const uint8_t *src = toDevice ? hostIn + host * elemBytes : d;
                int64_t dstStride = toDevice ? ds : hs;
                int64_t srcStride = toDevice ? hs : ds;
                switch (elemBytes) {
                case 1:
                  copyStrided<uint8_t>(dst, dstStride, src, srcStride, range);
                  break;
                case 2:
                  copyStrided<uint16_t>(dst, dstStride, src, srcStride, range);
                  break;
                case 4:
                  copyStrided<uint32_t>(dst, dstStride, src, srcStride, range);
                  break;
                default:
                  for (int64_t i = 0; i < range; ++i)
                    std::memcpy(dst + i * dstStride * elemBytes,
                                src + i * srcStride * elemBytes, elemBytes);
                }
              });
          if (stream)
            streamFence();
        });
  }
  if (stream)
    streamFence();
}

/// Element access to a device buffer of any width (4-bit elements packed two
/// per byte, low nibble first).
struct DeviceBuffer {
  uint8_t *base;
  unsigned bits;

  uint32_t load(int64_t e) const {
    switch (bits) {
    case 4: {
      uint8_t byte = base[e / 2];
      return (e % 2 == 0) ? (byte & 0xf) : (byte >> 4);
    }
    case 8:
      return base[e];
    case 16: {
      uint16_t v;
      std::memcpy(&v, base + e * 2, 2);
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, base + e * 4, 4);
      return v;
    }
    }
  }
  void store(int64_t e, uint32_t v) const {
    switch (bits) {
    case 4: {
      uint8_t &byte = base[e / 2];
      byte = (e % 2 == 0) ? ((byte & 0xf0) | (v & 0xf))
                          : ((byte & 0x0f) | ((v & 0xf) << 4));
      return;
    }
    case 8:
      base[e] = static_cast<uint8_t>(v);
      return;
    case 16: {
      uint16_t w = static_cast<uint16_t>(v);
      std::memcpy(base + e * 2, &w, 2);
      return;
    }
    default:
      std::memcpy(base + e * 4, &v, 4);
    }
  }
};

} // namespace

static llvm::Error checkTypes(const BoundLayout &layout, HostType hostType) {
  DataFormat format = layout.layout().getFormat();
  if (deviceFormatFor(hostType) != format)
    return makeError(llvm::formatv(
        "host elements of type {0} are stored as {1}, but the layout's device "
        "format is {2}",
        stringifyHostType(hostType),
        stringifyDataFormat(deviceFormatFor(hostType)),
        stringifyDataFormat(format)));
  return llvm::Error::success();
}

/// Worker threads (besides the caller) for a transfer of `bytes`: none
/// below the threshold unless asked for.
static std::optional<llvm::StdThreadPool> workersFor(int64_t bytes,
                                                     unsigned requested) {
  unsigned threads = requested > 0 ? requested
                     : bytes < kParallelThresholdBytes
                         ? 1
                         : llvm::hardware_concurrency().compute_thread_count();
  if (threads <= 1)
    return std::nullopt;
  return std::optional<llvm::StdThreadPool>(
      std::in_place, llvm::hardware_concurrency(threads - 1));
}

llvm::Error mlir::spyre::stickify(const BoundLayout &layout, HostType hostType,
                                  const void *host, void *device,
                                  double padValue, unsigned threads) {
  if (llvm::Error err = checkTypes(layout, hostType))
    return err;
  const SpyreTensorLayout &stl = layout.layout();
  DataFormat format = stl.getFormat();
  llvm::Expected<uint32_t> pad = encodeDeviceValue(format, padValue);
  if (!pad)
    return makeError("pad value: " + llvm::toString(pad.takeError()));
  const uint8_t *in = static_cast<const uint8_t *>(host);
  DmaPlan plan = layout.dmaPlan(DmaDirection::HostToDevice);
  if (hostType == HostType::Int4) {
    // Check every value before writing anything.
    std::optional<int64_t> bad;
    for (const DmaNest &nest : plan.nests)
      forEachRun(
          nest.loops, 0, nest.hostOffset,
          [&](int64_t, int64_t hostOff, int64_t range, int64_t, int64_t hs) {
            for (int64_t i = 0; i < range && !bad; ++i) {
              int8_t v = static_cast<int8_t>(in[hostOff + i * hs]);
              if (v < -8 || v > 7)
                bad = hostOff + i * hs;
            }
          });
    if (bad)
      return makeError(llvm::formatv(
          "int4 host value at element offset {0} is outside [-8, 7]", *bad));
  }
  DeviceBuffer out{static_cast<uint8_t *>(device), deviceElementBits(format)};
  bool stream = stl.deviceBytes() >= kStreamingThresholdBytes;

  // Padding first: each padding position is written exactly once.
  for (const DmaNest &nest : layout.paddingPlan().nests)
    forEachRun(nest.loops, nest.deviceOffset, 0,
               [&](int64_t dev, int64_t, int64_t range, int64_t ds, int64_t) {
                 if (ds == 1 && out.bits == 16) {
                   uint16_t *p = reinterpret_cast<uint16_t *>(out.base) + dev;
                   std::fill_n(p, range, static_cast<uint16_t>(*pad));
                   return;
                 }
                 if (ds == 1 && out.bits == 8) {
                   std::memset(out.base + dev, static_cast<int>(*pad), range);
                   return;
                 }
                 if (ds == 1 && out.bits == 32) {
                   uint32_t *p = reinterpret_cast<uint32_t *>(out.base) + dev;
                   std::fill_n(p, range, *pad);
                   return;
                 }
                 for (int64_t i = 0; i < range; ++i)
                   out.store(dev + i * ds, *pad);
               });

  if (isBitExactTransfer(hostType)) {
    std::optional<llvm::StdThreadPool> workers =
        workersFor(stl.deviceBytes(), threads);
    copySameWidth(plan, hostElementBytes(hostType), out.base, in, nullptr,
                  /*toDevice=*/true, stream, workers ? &*workers : nullptr);
    return llvm::Error::success();
  }

  // Converting transfers, one element at a time.
  uint32_t one = 0;
  if (hostType == HostType::Bool)
    one = llvm::cantFail(encodeDeviceValue(format, 1.0));
  unsigned hostBytes = hostElementBytes(hostType);
  for (const DmaNest &nest : plan.nests)
    forEachRun(nest.loops, nest.deviceOffset, nest.hostOffset,
               [&](int64_t dev, int64_t hostOff, int64_t range, int64_t ds,
                   int64_t hs) {
                 for (int64_t i = 0; i < range; ++i) {
                   const uint8_t *src = in + (hostOff + i * hs) * hostBytes;
                   out.store(dev + i * ds,
                             hostToDeviceBits(hostType, src, one));
                 }
               });
  return llvm::Error::success();
}

llvm::Error mlir::spyre::unstickify(const BoundLayout &layout,
                                    HostType hostType, const void *device,
                                    void *host, unsigned threads) {
  if (llvm::Error err = checkTypes(layout, hostType))
    return err;
  const SpyreTensorLayout &stl = layout.layout();
  DataFormat format = stl.getFormat();
  DeviceBuffer in{const_cast<uint8_t *>(static_cast<const uint8_t *>(device)),
                  deviceElementBits(format)};
  uint8_t *out = static_cast<uint8_t *>(host);
  DmaPlan plan = layout.dmaPlan(DmaDirection::DeviceToHost);
  bool stream = stl.deviceBytes() >= kStreamingThresholdBytes;
  if (isBitExactTransfer(hostType)) {
    std::optional<llvm::StdThreadPool> workers =
        workersFor(stl.deviceBytes(), threads);
    copySameWidth(plan, hostElementBytes(hostType), in.base, nullptr, out,
                  /*toDevice=*/false, stream, workers ? &*workers : nullptr);
    return llvm::Error::success();
  }
  unsigned hostBytes = hostElementBytes(hostType);
  for (const DmaNest &nest : plan.nests)
    forEachRun(nest.loops, nest.deviceOffset, nest.hostOffset,
               [&](int64_t dev, int64_t hostOff, int64_t range, int64_t ds,
                   int64_t hs) {
                 for (int64_t i = 0; i < range; ++i) {
                   uint8_t *dst = out + (hostOff + i * hs) * hostBytes;
                   uint32_t bits = in.load(dev + i * ds);
                   deviceBitsToHost(hostType, bits, dst);
                 }
               });
  return llvm::Error::success();
}
