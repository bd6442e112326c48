#!/usr/bin/env python3
"""Checks SuperDSC documents against the contract the backend reads.

Reads `spyre-translate --spyre-to-superdsc` output (a {"bundles", "sdscs"}
document) or single sdsc_N.json files, and checks every SuperDSC: the
fields and their JSON types, and the rules that tie them together (the
reference generator's, see ../shared/reference/spyre_facts.md section 10):

  - every label of N_, numWkSlicesPerDim_ and coreIdToWkSlice_ is the same
    set; numWkSlicesPerDim_ multiplies to numCoresUsed_; every core's slice
    index is below its dim's slice count;
  - a layout class has as many stick labels as stick sizes, and no stick
    label is empty or missing from its layoutDimOrder_;
  - every labeled tensor names a layout class, has one scale_ per label of
    its class, and a scheduleTree_ allocate node with the same ldsIdx_;
  - coordInfo has an entry per label of the tensor's class;
  - the compute op's input and output tensors exist;
  - segment addresses of every core are decimal strings.

and every bundle of a document (torch-spyre's bundle rules, the default
target's numbers): at most 6 segments bound, the pool (if any) first; every
SuperDSC in exactly one bundle; every DDR address of a SuperDSC inside a
segment its bundle binds (segment i spans [i, i + 1) * 16 GiB).

Prints "N SuperDSCs checked" or every violation, one per line, and exits 1.
"""

import json
import math
import sys

INT, STR, LIST, DICT = int, str, list, dict

TOP_FIELDS = {
    "sdscFoldProps_": LIST, "sdscFolds_": DICT, "coreFoldProp_": DICT,
    "coreletFoldProp_": DICT, "numCoresUsed_": INT, "coreIdToDsc_": DICT,
    "numWkSlicesPerDim_": DICT, "coreIdToWkSlice_": DICT,
    "coreIdToDscSchedule": DICT, "dscs_": LIST,
}
DSC_FIELDS = {
    "numCoresUsed_": INT, "numCoreletsUsed_": INT, "coreIdsUsed_": LIST,
    "N_": DICT, "coordinateMasking_": DICT, "maskingConstId_": INT,
    "dataStageParam_": DICT, "primaryDsInfo_": DICT, "scheduleTree_": LIST,
    "labeledDs_": LIST, "computeOp_": LIST,
}
LABELED_FIELDS = {
    "ldsIdx_": INT, "dsName_": STR, "dsType_": STR, "scale_": LIST,
    "wordLength": INT, "dataFormat_": STR, "memOrg_": DICT,
}
NODE_FIELDS = {
    "nodeType_": STR, "name_": STR, "ldsIdx_": INT, "component_": STR,
    "layoutDimOrder_": LIST, "maxDimSizes_": LIST,
    "startAddressCoreCorelet_": DICT, "coordinates_": DICT,
}
FORMATS = {"SEN169_FP16", "IEEE_FP32", "IEEE_INT32", "SENINT8",
           "SEN143_FP8", "SEN152_FP8", "SENINT4"}


def check_fields(obj, fields, where, errors):
    if not isinstance(obj, dict):
        errors.append(f"{where}: not an object")
        return False
    ok = True
    for name, kind in fields.items():
        if name not in obj:
            errors.append(f"{where}: missing {name}")
            ok = False
        elif not isinstance(obj[name], kind) or isinstance(obj[name], bool):
            errors.append(f"{where}.{name}: expected {kind.__name__}, got "
                          f"{type(obj[name]).__name__}")
            ok = False
    return ok


def check_dsc(name, dsc, top, errors):
    where = f"{name}"
    if not check_fields(dsc, DSC_FIELDS, where, errors):
        return
    labels = {k[:-1] for k in dsc["N_"] if k != "name_"}
    slices = top["numWkSlicesPerDim_"]
    if set(slices) != labels:
        errors.append(f"{where}: numWkSlicesPerDim_ labels {sorted(slices)} "
                      f"!= N_ labels {sorted(labels)}")
    cores = top["numCoresUsed_"]
    if math.prod(slices.values()) != cores:
        errors.append(f"{where}: numWkSlicesPerDim_ {slices} does not "
                      f"multiply to {cores} cores")
    if dsc["numCoresUsed_"] != cores or len(dsc["coreIdsUsed_"]) != cores:
        errors.append(f"{where}: core counts disagree")
    for core, slice_ in top["coreIdToWkSlice_"].items():
        if set(slice_) != labels:
            errors.append(f"{where}: core {core} slice labels "
                          f"{sorted(slice_)} != {sorted(labels)}")
            continue
        for label, index in slice_.items():
            if not 0 <= index < slices.get(label, 1):
                errors.append(f"{where}: core {core} slice {label}={index} "
                              f"out of range")
    if len(top["coreIdToWkSlice_"]) != cores:
        errors.append(f"{where}: coreIdToWkSlice_ has "
                      f"{len(top['coreIdToWkSlice_'])} cores, not {cores}")

    classes = dsc["primaryDsInfo_"]
    for cls, info in classes.items():
        order = info.get("layoutDimOrder_", [])
        sticks = info.get("stickDimOrder_", [])
        sizes = info.get("stickSize_", [])
        if not sticks or len(sticks) != len(sizes):
            errors.append(f"{where}: class {cls}: {len(sticks)} stick labels "
                          f"for {len(sizes)} stick sizes")
        for stick in sticks:
            if not isinstance(stick, str) or not stick:
                errors.append(f"{where}: class {cls}: empty stick label")
            elif stick not in order:
                errors.append(f"{where}: class {cls}: stick label {stick!r} "
                              f"not in layoutDimOrder_ {order}")
        for label in order:
            if label not in labels:
                errors.append(f"{where}: class {cls}: label {label!r} not "
                              f"in N_")
        for size in sizes:
            if not isinstance(size, int) or size <= 0:
                errors.append(f"{where}: class {cls}: stick size {size!r}")

    nodes = {}
    for node in dsc["scheduleTree_"]:
        if check_fields(node, NODE_FIELDS, f"{where}: node", errors):
            nodes[node["ldsIdx_"]] = node
            addresses = node["startAddressCoreCorelet_"].get("data_", {})
            for key, value in addresses.items():
                if not isinstance(value, str) or not value.isdigit():
                    errors.append(f"{where}: node {node['name_']}: address "
                                  f"{key} = {value!r} is not a decimal "
                                  f"string")
    names = set()
    for tensor in dsc["labeledDs_"]:
        twhere = f"{where}: tensor {tensor.get('dsName_', '?')}"
        if not check_fields(tensor, LABELED_FIELDS, twhere, errors):
            continue
        names.add(f"{tensor['dsName_']}-idx{tensor['ldsIdx_']}")
        cls = classes.get(tensor["dsType_"])
        if cls is None:
            errors.append(f"{twhere}: dsType_ {tensor['dsType_']!r} is not "
                          f"a layout class")
            continue
        if len(tensor["scale_"]) != len(cls["layoutDimOrder_"]):
            errors.append(f"{twhere}: {len(tensor['scale_'])} scales for "
                          f"{len(cls['layoutDimOrder_'])} labels")
        if tensor["dataFormat_"] not in FORMATS:
            errors.append(f"{twhere}: data format {tensor['dataFormat_']!r}")
        node = nodes.get(tensor["ldsIdx_"])
        if node is None:
            errors.append(f"{twhere}: no allocate node")
            continue
        info = node["coordinates_"].get("coordInfo", {})
        if set(info) != set(cls["layoutDimOrder_"]):
            errors.append(f"{twhere}: coordInfo labels {sorted(info)} != "
                          f"{sorted(cls['layoutDimOrder_'])}")
    for op in dsc["computeOp_"]:
        for ref in op.get("inputLabeledDs", []) + op.get("outputLabeledDs",
                                                         []):
            if ref not in names:
                errors.append(f"{where}: compute op reads {ref!r}, which is "
                              f"not a labeled tensor")


def check_sdsc(file_name, sdsc, errors):
    if not isinstance(sdsc, dict) or len(sdsc) != 1:
        errors.append(f"{file_name}: expected one '<index>_<op>' entry")
        return
    (key, top), = sdsc.items()
    where = f"{file_name} {key}"
    if not check_fields(top, TOP_FIELDS, where, errors):
        return
    for entry in top["dscs_"]:
        for op, dsc in entry.items():
            check_dsc(f"{where} {op}", dsc, top, errors)


SEGMENT_BYTES = 16 << 30
BUNDLE_SEGMENTS = 6


def hbm_addresses(sdsc):
    for top in sdsc.values():
        for entry in top.get("dscs_", []):
            for dsc in entry.values():
                for node in dsc.get("scheduleTree_", []):
                    if node.get("component_") != "hbm":
                        continue
                    data = node.get("startAddressCoreCorelet_", {})
                    for value in data.get("data_", {}).values():
                        if isinstance(value, str) and value.isdigit():
                            yield node.get("name_", "?"), int(value)


def check_bundles(document, errors):
    """The bundles of one document; returns the SuperDSC names in order."""
    names, owner = [], {}
    for bundle in document.get("bundles", []):
        where = f"bundle {bundle.get('file', '?')}"
        segments = bundle.get("segments", [])
        if len(segments) > BUNDLE_SEGMENTS:
            errors.append(f"{where}: binds {len(segments)} segments, more "
                          f"than {BUNDLE_SEGMENTS}")
        if any("pool" in s for s in segments[1:]):
            errors.append(f"{where}: the pool is not segment 0")
        if len(set(segments)) != len(segments):
            errors.append(f"{where}: a buffer is bound twice")
        for name in bundle.get("sdscs", []):
            if name in owner:
                errors.append(f"{name}: in {owner[name]} and {where}")
            owner[name] = where
            names.append(name)
            sdsc = document["sdscs"].get(name)
            if sdsc is None:
                errors.append(f"{where}: no SuperDSC {name}")
                continue
            for node, address in hbm_addresses(sdsc):
                if address // SEGMENT_BYTES >= len(segments):
                    errors.append(f"{name}: {node} at {address}, outside "
                                  f"the {len(segments)} segments {where} "
                                  f"binds")
    for name in document["sdscs"]:
        if name not in owner:
            errors.append(f"{name}: in no bundle")
    return names


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    errors, count = [], 0
    for path in argv[1:]:
        with open(path) as f:
            text = f.read()
        # Several documents may be concatenated (split-input-file).
        decoder, pos = json.JSONDecoder(), 0
        while pos < len(text):
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            if pos >= len(text):
                break
            if text.startswith("// -----", pos):
                pos = text.index("\n", pos) + 1 if "\n" in text[pos:] \
                    else len(text)
                continue
            document, pos = decoder.raw_decode(text, pos)
            if "sdscs" in document:
                for name in check_bundles(document, errors):
                    check_sdsc(name, document["sdscs"].get(name), errors)
                    count += 1
            else:
                check_sdsc(path, document, errors)
                count += 1
    for error in errors:
        print(error)
    if errors:
        return 1
    print(f"{count} SuperDSCs checked")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
