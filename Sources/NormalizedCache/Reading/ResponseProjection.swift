import GraphQLLanguage

/// The part of a response an operation selects, keyed by response key: what reading the operation
/// back from the cache must return (docs/metrics.md: a read-back must equal it).
public enum ResponseProjection {
  /// The selected data of a response (`{"data": ...}` or the data object).
  /// - Throws: ``NormalizationError`` where the response does not fit the operation.
  public static func selectedData(of response: JSONValue, plan: OperationPlan) throws -> JSONObject {
    let data = try Normalizer.data(of: response)
    return try project(data, plan: plan.root, typename: data["__typename"]?.stringValue ?? plan.rootTypeName, in: plan)
  }

  static func project(_ object: JSONObject, plan selectionPlan: SelectionPlan, typename: String?, in plan: OperationPlan) throws
    -> JSONObject
  {
    let selection = try plan.selection(selectionPlan, runtimeType: typename)
    var result = JSONObject()
    result.reserveCapacity(selection.fields.count)
    for field in selection.fields {
      guard let value = object[field.responseKey] else {
        if field.isConditional { continue }
        throw NormalizationError("missing field \"\(field.responseKey)\"", path: [])
      }
      if let child = field.child {
        result.append(key: field.responseKey, value: try projectValue(value, plan: child, in: plan))
      } else {
        result.append(key: field.responseKey, value: value)
      }
    }
    return result
  }

  private static func projectValue(_ value: JSONValue, plan selectionPlan: SelectionPlan, in plan: OperationPlan) throws -> JSONValue {
    switch value {
    case .object(let object):
      let typename = object["__typename"]?.stringValue ?? selectionPlan.inferredType
      return .object(try project(object, plan: selectionPlan, typename: typename, in: plan))
    case .array(let elements):
      return .array(try elements.map { try projectValue($0, plan: selectionPlan, in: plan) })
    default:
      return value
    }
  }
}
