// Arrays of structs for `culift run` and `culift launch` (a parameter `const Particle* ps`): its
// records as JSON objects keyed by the field paths, in and out. docs/cli.md describes the form.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "culift/ast/module.hpp"
#include "llvm/Support/JSON.h"

namespace culift::cli {

// "const Particle*": the parameter's type as the user wrote it.
std::string recordPointerType(const RecordView& record, bool constElements);

// Whether `j` is an array of records: a non-empty JSON array whose elements are objects.
bool isRecordList(const llvm::json::Value& j);

// Reads records, each an object with every field of `record` by its path ("pos_x": 1) or
// nested by the struct's members ("pos": {"x": 1}). Calls `store(element, value, why)` for
// each field's value with the index of its scalar in the records' memory (record * elements()
// + offset / size). False with `why` naming the record and what is wrong: a record that is not
// an object, a field missing, unknown or given twice, or `store`'s own reason.
using StoreElement = std::function<bool(std::size_t element, const llvm::json::Value& value, std::string& why)>;
bool readRecords(const llvm::json::Array& list, const RecordView& record, const StoreElement& store, std::string& why);

// Writes the records of an array of `elements` scalars as objects keyed by field path, each
// value the JSON text `element(k)` gives for scalar k; an array that is not whole records is
// written as its scalars.
void writeRecords(llvm::json::OStream& out, const RecordView& record, std::size_t elements,
                  const std::function<std::string(std::size_t element)>& element);

}  // namespace culift::cli
