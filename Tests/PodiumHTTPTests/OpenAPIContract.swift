import Foundation
import PodiumWire

/// Loads an OpenAPI document and checks answers against it.
///
/// Tests use it to keep `openapi.json` true: every answer a handler gives must be declared, with
/// the status, media type and body schema it really has. It understands the subset of OpenAPI 3.1
/// and JSON Schema that Podium's document uses (local `$ref`s, `type` including type arrays,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, bounds on numbers, strings
/// and arrays, `pattern`); a schema using any other validation keyword is reported rather than
/// silently passed. It also gives a schema's field tree (`fieldTree(ofSchema:)`), so the answer types can
/// be compared with the document key by key.
struct OpenAPIContract: Sendable {
    /// Why a document could not be loaded.
    struct DocumentError: Error, CustomStringConvertible {
        /// What is wrong with the document.
        let description: String
    }

    /// One path template with its operations.
    private struct Route: Sendable {
        /// The template as written, e.g. `/v1/users/{id}`.
        let template: String
        /// Its segments after the leading slash.
        let segments: [Substring]
        /// Operations by uppercased method.
        let operations: [String: JSONValue]

        /// Whether a concrete path (split into segments) matches; `{x}` matches one non-empty segment.
        func matches(_ path: [Substring]) -> Bool {
            segments.count == path.count && zip(segments, path).allSatisfy { pattern, segment in
                Route.isParameter(pattern) ? !segment.isEmpty : pattern == segment
            }
        }

        /// Whether `other` is preferred at the first segment where one has a literal and the other a parameter.
        func isLessSpecific(than other: Route) -> Bool {
            for (mine, theirs) in zip(segments, other.segments) where Route.isParameter(mine) != Route.isParameter(theirs) {
                return Route.isParameter(mine)
            }
            return false
        }

        /// Whether a template segment is a parameter (`{id}`).
        static func isParameter(_ segment: Substring) -> Bool {
            segment.hasPrefix("{") && segment.hasSuffix("}")
        }
    }

    /// The keys of a path item that name operations.
    private static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Schema keywords this checker enforces.
    private static let validationKeywords: Set<String> = [
        "$ref", "type", "enum", "const", "anyOf", "oneOf", "properties", "required", "additionalProperties", "items",
        "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "if", "then",
    ]

    /// Schema keywords that only annotate and never make a value invalid.
    private static let annotationKeywords: Set<String> = [
        "description", "title", "format", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
    ]

    /// Longest chain of `$ref`s followed while checking one value, so a reference cycle cannot recurse forever.
    private static let maximumReferenceDepth = 64

    /// The whole document, for resolving references.
    private let root: JSONValue
    /// Every path template with its operations.
    private let routes: [Route]

    /// Parses `document` (OpenAPI JSON); throws if it is not JSON or has no `paths` object.
    init(document: Data) throws {
        root = try JSONValue(parsing: document)
        guard case .object(let paths)? = root["paths"] else { throw DocumentError(description: "the document has no paths object") }
        routes = paths.map { template, item in
            var operations: [String: JSONValue] = [:]
            for (method, operation) in item.objectValue ?? [:] where Self.methods.contains(method) {
                operations[method.uppercased()] = operation
            }
            return Route(template: template, segments: Self.segments(of: template), operations: operations)
        }
    }

    /// Path templates with their methods, e.g. ["GET /v1/users/{id}", ...] (uppercased method).
    var operations: Set<String> {
        Set(declaredStatuses.keys)
    }

    /// The response statuses each operation declares ("200", "4XX", "default"), keyed like `operations`.
    var declaredStatuses: [String: Set<String>] {
        var statuses: [String: Set<String>] = [:]
        for route in routes {
            for (method, operation) in route.operations {
                statuses["\(method) \(route.template)"] = Set((operation["responses"]?.objectValue ?? [:]).keys)
            }
        }
        return statuses
    }

    /// Every `$ref` in the document that does not point at a value in it, sorted.
    var unresolvedReferences: [String] {
        Set(Self.references(in: root).filter { pointee(of: $0) == nil }).sorted()
    }

    /// Every `$ref` in `value`, at any depth.
    private static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            (members["$ref"]?.stringValue.map { [$0] } ?? []) + members.values.flatMap(references(in:))
        case .array(let items):
            items.flatMap(references(in:))
        case .null, .bool, .number, .string:
            []
        }
    }

    /// Finds the operation for a concrete request path and checks an answer against the response it declares for `status`.
    ///
    /// Paths match templates segment by segment (`{x}` matches one non-empty segment; literal
    /// segments win over templates); a query string is ignored. The media type is compared without
    /// parameters; JSON bodies (`application/json`, `…+json`) are parsed and checked against the
    /// schema, other bodies only need a declared media type. 204 and 304 answers, and responses
    /// declaring no content, must have an empty body. Returns human-readable violations, e.g.
    /// `GET /v1/users/{id} 200: $.totals.points: expected integer, found string "7"`; empty when the answer conforms.
    func violations(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        let method = method.uppercased()
        let path = path.prefix { $0 != "?" }
        let segments = Self.segments(of: path)
        let route = routes.filter { $0.matches(segments) }.max { $0.isLessSpecific(than: $1) }
        guard let route, let operation = route.operations[method] else { return ["\(method) \(path): no such operation"] }
        let name = "\(method) \(route.template) \(status)"
        let responses = operation["responses"]?.objectValue ?? [:]
        guard let declared = responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["default"] else {
            return ["\(name): status not declared"]
        }
        guard let response = resolved(declared) else {
            return ["\(name): \(declared["$ref"]?.stringValue ?? "the response") does not resolve"]
        }
        return answerViolations(response: response, status: status, contentType: contentType, body: body).map { "\(name): \($0)" }
    }

    /// Every operation or request body of the document without an example, and every example that breaks its schema.
    ///
    /// Examples are expected on each request body, on at least one success answer (2xx) with a body of each operation
    /// (HTML pages aside), and on each shared answer in `components.responses`. JSON examples are checked
    /// against their schema; text examples must be strings.
    var exampleViolations: [String] {
        var found: [String] = []
        /// Checks the example of `entry`, if it has one; returns whether it has.
        @discardableResult
        func checkExample(_ entry: JSONValue, mediaType: String, name: String, required: Bool = true) -> Bool {
            guard let example = entry["example"] else {
                if required { found.append("\(name) \(mediaType): no example") }
                return false
            }
            guard mediaType.hasSuffix("json") else {
                if example.stringValue == nil { found.append("\(name) \(mediaType): the example is not text") }
                return true
            }
            guard let schema = entry["schema"] else { return true }
            var problems: [String] = []
            check(example, against: schema, at: "$", depth: 0, into: &problems)
            found += problems.map { "\(name) \(mediaType) example: \($0)" }
            return true
        }
        for route in routes.sorted(by: { $0.template < $1.template }) {
            for (method, operation) in route.operations.sorted(by: { $0.key < $1.key }) {
                let name = "\(method) \(route.template)"
                for (mediaType, entry) in operation["requestBody"]?["content"]?.objectValue ?? [:] {
                    checkExample(entry, mediaType: mediaType, name: "\(name) request")
                }
                // One success answer with an example is enough (a replay's 200 beside a 201); each example is checked.
                var answers = 0
                var exemplified = 0
                for (status, declared) in operation["responses"]?.objectValue ?? [:]
                where status.hasPrefix("2") && declared["$ref"] == nil {
                    for (mediaType, entry) in declared["content"]?.objectValue ?? [:] where mediaType != "text/html" {
                        answers += 1
                        if checkExample(entry, mediaType: mediaType, name: "\(name) \(status)", required: false) { exemplified += 1 }
                    }
                }
                if answers > 0, exemplified == 0 { found.append("\(name): no example of a success answer") }
            }
        }
        for (response, declared) in (root["components"]?["responses"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (mediaType, entry) in declared["content"]?.objectValue ?? [:] {
                checkExample(entry, mediaType: mediaType, name: "components.responses.\(response)")
            }
        }
        return found
    }

    /// Checks the media type and body of an answer against a resolved response object.
    private func answerViolations(response: JSONValue, status: Int, contentType: String?, body: Data) -> [String] {
        let content = response["content"]?.objectValue ?? [:]
        if status == 204 || status == 304 || content.isEmpty {
            return body.isEmpty ? [] : ["expected an empty body, got \(body.count) bytes"]
        }
        guard let contentType else { return ["no Content-Type (declared: \(content.keys.sorted().joined(separator: ", ")))"] }
        let mediaType = Self.mediaType(contentType)
        guard let entry = content.first(where: { Self.mediaType($0.key) == mediaType })?.value else {
            return ["content type \(mediaType) not declared (declared: \(content.keys.sorted().joined(separator: ", ")))"]
        }
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            return ["the body is not valid JSON"]
        }
        guard let schema = resolved(entry)?["schema"] else { return [] }
        var found: [String] = []
        check(value, against: schema, at: "$", depth: 0, into: &found)
        return found
    }

    /// Appends to `found` every way `value`, found at `location`, breaks `schema`.
    private func check(_ value: JSONValue, against schema: JSONValue, at location: String, depth: Int, into found: inout [String]) {
        if case .bool(let acceptsAll) = schema {
            if !acceptsAll { found.append("\(location): no value is allowed here") }
            return
        }
        guard case .object(let keywords) = schema else {
            found.append("\(location): the schema is not an object")
            return
        }
        for keyword in keywords.keys.sorted()
        where !Self.validationKeywords.contains(keyword) && !Self.annotationKeywords.contains(keyword) {
            found.append("\(location): schema keyword \(keyword) is not supported by this checker")
        }
        if case .string(let reference)? = keywords["$ref"] {
            guard depth < Self.maximumReferenceDepth, let target = pointee(of: reference) else {
                found.append("\(location): \(reference) does not resolve")
                return
            }
            check(value, against: target, at: location, depth: depth + 1, into: &found)
        }
        if let options = keywords["anyOf"]?.arrayValue {
            let failures = options.map { option -> [String] in
                var optionFound: [String] = []
                check(value, against: option, at: location, depth: depth + 1, into: &optionFound)
                return optionFound
            }
            if !failures.contains(where: \.isEmpty) {
                found.append("\(location): matches none of anyOf: \(failures.flatMap { $0 }.joined(separator: "; "))")
            }
        }
        if let options = keywords["oneOf"]?.arrayValue {
            let failures = options.map { option -> [String] in
                var optionFound: [String] = []
                check(value, against: option, at: location, depth: depth + 1, into: &optionFound)
                return optionFound
            }
            let matching = failures.filter(\.isEmpty).count
            if matching != 1 {
                found.append("\(location): matches \(matching) of oneOf, not exactly one: \(failures.flatMap { $0 }.joined(separator: "; "))")
            }
        }
        // `then` applies to a value that `if` accepts (JSON Schema 2020-12, as OpenAPI 3.1 has it).
        if let condition = keywords["if"], let consequence = keywords["then"] {
            var conditionFound: [String] = []
            check(value, against: condition, at: location, depth: depth + 1, into: &conditionFound)
            if conditionFound.isEmpty { check(value, against: consequence, at: location, depth: depth + 1, into: &found) }
        }
        if let constant = keywords["const"], constant != value {
            found.append("\(location): \(value.literal) is not \(constant.literal)")
        }
        if let type = keywords["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            guard allowed.contains(where: value.isOfType) else {
                found.append("\(location): expected \(allowed.joined(separator: " or ")), found \(value.summary)")
                return
            }
        }
        if let options = keywords["enum"]?.arrayValue, !options.contains(value) {
            found.append("\(location): \(value.literal) is not one of \(options.map(\.literal).joined(separator: ", "))")
        }
        switch value {
        case .object(let members):
            checkMembers(members, keywords: keywords, at: location, depth: depth, into: &found)
        case .array(let items):
            if let minimum = keywords["minItems"]?.numberValue, Double(items.count) < minimum {
                found.append("\(location): expected at least \(JSONValue.number(minimum).literal) items, found \(items.count)")
            }
            if let maximum = keywords["maxItems"]?.numberValue, Double(items.count) > maximum {
                found.append("\(location): expected at most \(JSONValue.number(maximum).literal) items, found \(items.count)")
            }
            if case .bool(true)? = keywords["uniqueItems"], Set(items.map(\.literal)).count != items.count {
                found.append("\(location): items repeat")
            }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, at: "\(location)[\(index)]", depth: depth, into: &found)
                }
            }
        case .string(let text):
            let length = Double(text.unicodeScalars.count)
            if let minimum = keywords["minLength"]?.numberValue, length < minimum {
                found.append("\(location): shorter than \(JSONValue.number(minimum).literal) characters")
            }
            if let maximum = keywords["maxLength"]?.numberValue, length > maximum {
                found.append("\(location): longer than \(JSONValue.number(maximum).literal) characters")
            }
            if let pattern = keywords["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(location): \(value.literal) does not match \(pattern)")
            }
        case .number(let number):
            if let minimum = keywords["minimum"]?.numberValue, number < minimum {
                found.append("\(location): \(value.literal) is less than the minimum \(JSONValue.number(minimum).literal)")
            }
            if let maximum = keywords["maximum"]?.numberValue, number > maximum {
                found.append("\(location): \(value.literal) is greater than the maximum \(JSONValue.number(maximum).literal)")
            }
        case .null, .bool:
            break
        }
    }

    /// Checks an object's members against `properties`, `required` and `additionalProperties`.
    private func checkMembers(
        _ members: [String: JSONValue], keywords: [String: JSONValue], at location: String, depth: Int, into found: inout [String]
    ) {
        let properties = keywords["properties"]?.objectValue ?? [:]
        for name in (keywords["required"]?.arrayValue ?? []).compactMap(\.stringValue) where members[name] == nil {
            found.append("\(location): missing required property \(name)")
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            let memberLocation = "\(location).\(name)"
            if let propertySchema = properties[name] {
                check(member, against: propertySchema, at: memberLocation, depth: depth, into: &found)
            } else if let additional = keywords["additionalProperties"] {
                if case .bool(false) = additional {
                    found.append("\(memberLocation): unexpected property")
                } else {
                    check(member, against: additional, at: memberLocation, depth: depth, into: &found)
                }
            }
        }
    }

    /// `value`, or what its `$ref` chain points at; nil if a reference does not resolve.
    private func resolved(_ value: JSONValue) -> JSONValue? {
        var current = value
        for _ in 0..<Self.maximumReferenceDepth {
            guard case .string(let reference)? = current["$ref"] else { return current }
            guard let target = pointee(of: reference) else { return nil }
            current = target
        }
        return nil
    }

    /// The value a local reference (`#/components/schemas/X`, a JSON Pointer) points at, or nil.
    private func pointee(of reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst().removingPercentEncoding ?? ""
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let members):
                guard let member = members[key] else { return nil }
                current = member
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            case .null, .bool, .number, .string:
                return nil
            }
        }
        return current
    }

    /// A path's segments after the leading slash; empty segments are kept so they never match `{x}`.
    private static func segments(of path: some StringProtocol) -> [Substring] {
        let text = Substring(path)
        return (text.hasPrefix("/") ? text.dropFirst() : text).split(separator: "/", omittingEmptySubsequences: false)
    }

    /// The media type of a Content-Type value: parameters dropped, lowercased.
    private static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }
}

extension OpenAPIContract {
    /// The component schemas answers' JSON bodies use, with every object schema nested in them (`LeaderboardPage`
    /// brings `LeaderboardEntry`); schemas without `properties` (enums, patterns) are left out.
    var answerSchemaNames: Set<String> {
        schemaNames { operation in (operation["responses"]?.objectValue ?? [:]).values.compactMap(resolved) }
    }

    /// The component schemas request bodies use, with every object schema nested in them (`BatchRequest` brings
    /// `CompletionRequest`); schemas without `properties` are left out.
    var requestSchemaNames: Set<String> {
        schemaNames { operation in operation["requestBody"].flatMap(resolved).map { [$0] } ?? [] }
    }

    /// The object schemas the bodies `parts` picks from each operation (its responses, or its request body) use,
    /// followed through every reference.
    private func schemaNames(_ parts: (JSONValue) -> [JSONValue]) -> Set<String> {
        let prefix = "#/components/schemas/"
        let bodies = routes.flatMap { route in
            route.operations.values.flatMap { operation in
                parts(operation).flatMap { part in (part["content"]?.objectValue ?? [:]).values.compactMap { $0["schema"] } }
            }
        }
        var pending = bodies.flatMap(Self.references(in:))
        var found: Set<String> = []
        while let reference = pending.popLast() {
            guard reference.hasPrefix(prefix), let schema = pointee(of: reference), found.insert(reference).inserted else { continue }
            pending += Self.references(in: schema)
        }
        return Set(found.filter { pointee(of: $0)?["properties"] != nil }.map { String($0.dropFirst(prefix.count)) })
    }

    /// The fields component schema `name` declares: its `properties`, required as its `required` list says, with
    /// nested schemas followed through `$ref`, `items` and `anyOf` (whose options other than null must agree).
    ///
    /// Throws when a reference does not resolve, `required` names a key that is not a property, or the schema
    /// uses `allOf`, or a `oneOf` that adds fields: a `oneOf` beside `properties` may only narrow those properties (the
    /// options of a key request by role), and one without them is followed as `anyOf` is.
    func fieldTree(ofSchema name: String) throws -> FieldTree {
        let reference = "#/components/schemas/\(name)"
        guard case .object(let tree) = try shape(of: .object(["$ref": .string(reference)]), at: name, depth: 0) else {
            throw DocumentError(description: "\(reference) declares no properties")
        }
        return tree
    }

    private func shape(of schema: JSONValue, at location: String, depth: Int) throws -> FieldTree.Shape {
        guard depth < Self.maximumReferenceDepth, let target = resolved(schema) else {
            throw DocumentError(description: "\(location): \(schema["$ref"]?.stringValue ?? "the schema") does not resolve")
        }
        if target["allOf"] != nil {
            throw DocumentError(description: "\(location): allOf is not followed by the field tree")
        }
        if let properties = target["properties"]?.objectValue {
            let narrowed = (target["oneOf"]?.arrayValue ?? []).flatMap { ($0["properties"]?.objectValue ?? [:]).keys }
            if let added = Set(narrowed).subtracting(properties.keys).sorted().first {
                throw DocumentError(description: "\(location): an option of oneOf adds \(added), which the tree does not follow")
            }
            let required = Set((target["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            if let stray = required.subtracting(properties.keys).sorted().first {
                throw DocumentError(description: "\(location): required names \(stray), which is not among its properties")
            }
            var fields: [String: FieldTree.Field] = [:]
            for (key, property) in properties {
                let shape = try shape(of: property, at: "\(location).\(key)", depth: depth + 1)
                fields[key] = FieldTree.Field(isRequired: required.contains(key), shape: shape)
            }
            return .object(FieldTree(fields: fields))
        }
        if let items = target["items"] {
            return .array(try shape(of: items, at: location + "[]", depth: depth + 1))
        }
        if let options = target["anyOf"]?.arrayValue ?? target["oneOf"]?.arrayValue {
            let shapes = try options.filter { $0["type"] != .string("null") }.map { try shape(of: $0, at: location, depth: depth + 1) }
            guard let first = shapes.first, shapes.allSatisfy({ $0 == first }) else {
                throw DocumentError(description: "\(location): the options of anyOf or oneOf hold different fields")
            }
            return first
        }
        return .value
    }
}

extension OpenAPIContract {
    /// A parsed JSON value, so schemas and bodies are walked without casting `Any`.
    enum JSONValue: Equatable, Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// Any number; an integer is a number without a fractional part.
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([JSONValue])
        /// An object.
        case object([String: JSONValue])

        /// The class Foundation gives JSON booleans.
        ///
        /// `JSONSerialization` returns every number and boolean as an `NSNumber`, and on Linux `as? Bool`
        /// succeeds for the numbers 0 and 1 while `objCType` is not a reliable tag; the booleans are,
        /// however, instances of one private subclass, the same class `NSNumber(value: true)` has.
        private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

        /// Parses JSON text; any value may be at the top level.
        init(parsing data: Data) throws {
            self.init(foundation: try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
        }

        /// Converts what `JSONSerialization` returns.
        private init(foundation value: Any) {
            switch value {
            case let members as [String: Any]:
                self = .object(members.mapValues(JSONValue.init(foundation:)))
            case let items as [Any]:
                self = .array(items.map(JSONValue.init(foundation:)))
            case let text as String:
                self = .string(text)
            case let number as NSNumber:
                let isBoolean = ObjectIdentifier(type(of: number)) == ObjectIdentifier(Self.booleanClass)
                self = isBoolean ? .bool(number.boolValue) : .number(number.doubleValue)
            default:
                self = .null
            }
        }

        /// The member `key` of an object; nil for anything else.
        subscript(key: String) -> JSONValue? {
            objectValue?[key]
        }

        /// The members, if this is an object.
        var objectValue: [String: JSONValue]? {
            if case .object(let members) = self { members } else { nil }
        }

        /// The items, if this is an array.
        var arrayValue: [JSONValue]? {
            if case .array(let items) = self { items } else { nil }
        }

        /// The text, if this is a string.
        var stringValue: String? {
            if case .string(let text) = self { text } else { nil }
        }

        /// The number, if this is a number.
        var numberValue: Double? {
            if case .number(let number) = self { number } else { nil }
        }

        /// Whether this value is of JSON Schema type `type` (`integer` is a number without a fractional part).
        func isOfType(_ type: String) -> Bool {
            switch (type, self) {
            case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
                true
            case ("integer", .number(let number)):
                number.rounded(.towardZero) == number
            default:
                false
            }
        }

        /// The value in JSON notation for scalars (`"easy"`, `7`, `1.5`, `true`, `null`); `an object` or `an array` otherwise.
        var literal: String {
            switch self {
            case .null: "null"
            case .bool(let value): String(value)
            case .number(let number): number.rounded(.towardZero) == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .string(let text): "\"\(text)\""
            case .array: "an array"
            case .object: "an object"
            }
        }

        /// The JSON type and, for scalars, the value: `string "7"`, `number 1.5`, `boolean true`, `null`, `an object`.
        var summary: String {
            switch self {
            case .null, .array, .object: literal
            case .bool: "boolean \(literal)"
            case .number: "number \(literal)"
            case .string: "string \(literal)"
            }
        }
    }
}
