import Foundation
import GraphQLLanguage

/// The project's root directory, found from this file's path.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A file of the project as a ``Source`` named by its path relative to the project root.
func projectSource(_ relativePath: String) throws -> Source {
  let url = projectRoot.appendingPathComponent(relativePath)
  return Source(name: relativePath, text: try String(contentsOf: url, encoding: .utf8))
}

let calendarOperationFiles = [
  "ItemsQuery.graphql", "ItemFragment.graphql", "ItemTypeFragment.graphql", "IconFragment.graphql",
  "CategoryFragment.graphql", "CalendarFragment.graphql", "CalendarProviderFragment.graphql",
  "DateTimeFragment.graphql", "PageInfoFragment.graphql",
].map { "Workloads/calendar/" + $0 }
