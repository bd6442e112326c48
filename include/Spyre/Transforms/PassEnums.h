//===- PassEnums.h - Enumerated options of the spyre passes -----*- C++ -*-===//
//
// Enums that pass options (Passes.td) and the pipeline options share.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_TRANSFORMS_PASSENUMS_H
#define SPYRE_TRANSFORMS_PASSENUMS_H

namespace mlir::spyre {

/// Who chooses the layout of a function argument that has no
/// `spyre.layout` / `spyre.dim_order` attribute.
enum class ArgLayouts {
  /// Layout propagation, at no cost: the host stickifies the argument into
  /// whatever layout its readers want during the upload.
  Auto,
  /// The default layout of its shape (the reference stack's generic stick
  /// layout).
  Default,
};

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_PASSENUMS_H
