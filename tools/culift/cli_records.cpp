#include "cli_records.hpp"

#include <map>
#include <utility>
#include <vector>

namespace culift::cli {
namespace {

// The field paths an object names, nested objects joined with '_' as the front end joins
// nested structs' members ({"pos": {"x": 1}} is "pos_x"), each with its value.
void leaves(const llvm::json::Object& object, const std::string& prefix,
            std::vector<std::pair<std::string, const llvm::json::Value*>>& out) {
  // llvm::json::Object iterates in no fixed order: sorted keys keep messages reproducible.
  std::map<std::string, const llvm::json::Value*> sorted;
  for (const auto& [key, value] : object) sorted.emplace(key.str(), &value);
  for (const auto& [key, value] : sorted) {
    const std::string path = prefix.empty() ? key : prefix + "_" + key;
    if (const llvm::json::Object* nested = value->getAsObject()) leaves(*nested, path, out);
    else out.emplace_back(path, value);
  }
}

std::string fieldList(const RecordView& record) {
  std::string s;
  for (const RecordField& f : record.fields) s += (s.empty() ? "" : ", ") + f.path;
  return s;
}

}  // namespace

std::string recordPointerType(const RecordView& record, bool constElements) {
  return (constElements ? "const " : "") + record.name + "*";
}

bool isRecordList(const llvm::json::Value& j) {
  const llvm::json::Array* list = j.getAsArray();
  return list && !list->empty() && (*list)[0].getAsObject();
}

bool readRecords(const llvm::json::Array& list, const RecordView& record, const StoreElement& store, std::string& why) {
  const std::size_t elementBytes = byteSize(record.scalar), perRecord = record.elements();
  for (std::size_t r = 0; r < list.size(); ++r) {
    const std::string where = "record " + std::to_string(r);
    const llvm::json::Object* object = list[r].getAsObject();
    if (!object) {
      why = where + ": expected an object keyed by " + record.name + "'s fields (" + fieldList(record) + ")";
      return false;
    }
    std::vector<std::pair<std::string, const llvm::json::Value*>> given;
    leaves(*object, "", given);
    std::vector<const llvm::json::Value*> values(record.fields.size(), nullptr);
    for (const auto& [path, value] : given) {
      std::size_t f = 0;
      while (f < record.fields.size() && record.fields[f].path != path) ++f;
      if (f == record.fields.size()) {
        why = where + ": " + record.name + " has no field '" + path + "' (its fields: " + fieldList(record) + ")";
        return false;
      }
      if (values[f]) {
        why = where + ": field '" + path + "' is given twice";
        return false;
      }
      values[f] = value;
    }
    for (std::size_t f = 0; f < record.fields.size(); ++f) {
      const RecordField& field = record.fields[f];
      if (!values[f]) {
        why = where + ": field '" + field.path + "' is missing";
        return false;
      }
      std::string bad;
      if (!store(r * perRecord + field.offset / elementBytes, *values[f], bad)) {
        why = where + ", field '" + field.path + "': " + bad;
        return false;
      }
    }
  }
  return true;
}

void writeRecords(llvm::json::OStream& out, const RecordView& record, std::size_t elements,
                  const std::function<std::string(std::size_t element)>& element) {
  const std::size_t perRecord = record.elements(), elementBytes = byteSize(record.scalar);
  out.array([&] {
    if (perRecord == 0 || elements % perRecord != 0) {
      for (std::size_t k = 0; k < elements; ++k) out.rawValue(element(k));
      return;
    }
    for (std::size_t r = 0; r < elements / perRecord; ++r)
      out.object([&] {
        for (const RecordField& f : record.fields) {
          out.attributeBegin(f.path);
          out.rawValue(element(r * perRecord + f.offset / elementBytes));
          out.attributeEnd();
        }
      });
  });
}

}  // namespace culift::cli
