extension OperationModel {
  /// The operation and its fragments as a GraphQL document, two-space indented
  /// ([GraphQL spec §2](https://spec.graphql.org/October2021/#sec-Language)).
  func documentText(schema: SchemaModel) -> String {
    var writer = SelectionTextWriter(schema: schema, fragments: fragments)
    var text = "query \(name)"
    if !variables.isEmpty {
      text += "(" + variables.map { "$\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
    }
    text += " {\n"
    writer.text = text
    for root in rootFields {
      let field = schema.rootFields[root.field]
      let arguments = root.arguments.map { "\($0.name): \($0.value.text)" }.joined(separator: ", ")
      writer.line((root.alias.map { "\($0): " } ?? "") + field.name + "(\(arguments)) {", depth: 1)
      writer.write(root.selections, depth: 2)
      writer.line("}", depth: 1)
    }
    writer.text += "}\n"
    for fragment in fragments {
      writer.text += "\nfragment \(fragment.name) on \(schema.name(of: fragment.typeCondition)) {\n"
      writer.write(fragment.selections, depth: 1)
      writer.text += "}\n"
    }
    return writer.text
  }
}

private struct SelectionTextWriter {
  let schema: SchemaModel
  let fragments: [FragmentModel]
  var text = ""

  init(schema: SchemaModel, fragments: [FragmentModel]) {
    self.schema = schema
    self.fragments = fragments
  }

  mutating func line(_ content: String, depth: Int) {
    text += String(repeating: "  ", count: depth) + content + "\n"
  }

  mutating func write(_ selections: [SelectionModel], depth: Int) {
    for selection in selections {
      switch selection {
      case .typename:
        line("__typename", depth: depth)
      case .key(let name):
        line(name, depth: depth)
      case .scalar(let scalar):
        var content = (scalar.alias.map { "\($0): " } ?? "") + scalar.field.name
        if let value = scalar.argumentValue, let argument = scalar.field.argument {
          content += "(\(argument.name): \(value))"
        }
        line(content, depth: depth)
      case .object(let object):
        var arguments: [String] = []
        if let first = object.first { arguments.append("first: \(first)") }
        if let orderBy = object.orderBy { arguments.append("orderBy: \(orderBy)") }
        let argumentText = arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
        line((object.alias.map { "\($0): " } ?? "") + object.field.name + argumentText + " {", depth: depth)
        write(object.selections, depth: depth + 1)
        line("}", depth: depth)
      case .inlineFragment(let condition, let nested):
        line("... on \(schema.name(of: condition)) {", depth: depth)
        write(nested, depth: depth + 1)
        line("}", depth: depth)
      case .fragmentSpread(let index):
        line("..." + fragments[index].name, depth: depth)
      }
    }
  }
}
