// SwiftUI, reduced to what Flowstate's SwiftUINavigator and FlowNavigationView (and their
// documentation snippet) use: a STUB for type-checking on Linux, where SwiftUI does not exist. NOT
// SwiftUI.
//
// - Each declaration is copied from Apple's documentation (developer.apple.com/documentation/swiftui):
//   generic parameters and their constraints, argument labels, closure types (`@escaping`,
//   `@Sendable`, `@isolated(any)`, `@MainActor`), `@MainActor` types. The check is as faithful as these
//   signatures and no more: nothing here behaves like SwiftUI (bodies are `fatalError()` or return
//   `self`), so nothing here may be run.
// - The current documentation names the builder attribute `@ContentBuilder`; the stub keeps
//   `@ViewBuilder`, the name of the same builder in every SDK since iOS 13, with only the build methods
//   the adapter needs (`buildBlock`, `buildIf`, `buildEither`).
// - Modifiers return `some View` as SwiftUI's do (the stub returns `self`); views whose `Body` is
//   `Never` are primitive, as in SwiftUI.
import Combine

/// developer.apple.com/documentation/swiftui/view
/// (`@MainActor @preconcurrency protocol View`)
@MainActor @preconcurrency public protocol View {
    /// `associatedtype Body : View`
    associatedtype Body: View
    /// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("SwiftUI stub") }
}

/// A primitive view, as SwiftUI's are.
@MainActor public protocol _PrimitiveView: View where Body == Never {}
extension _PrimitiveView {
    public var body: Never { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    /// `static func buildBlock() -> EmptyView`
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// `static func buildBlock<Content>(_ content: Content) -> Content where Content : View`
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// `static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)> where repeat each Content : View`
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    /// `static func buildIf<Content>(_ content: Content?) -> Content? where Content : View`
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// `static func buildEither<TrueContent, FalseContent>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> where TrueContent : View, FalseContent : View`
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent> { fatalError("SwiftUI stub") }
    /// `static func buildEither<TrueContent, FalseContent>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> where TrueContent : View, FalseContent : View`
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent> { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/emptyview
public struct EmptyView: _PrimitiveView {
    /// `init()`
    nonisolated public init() {}
}

/// developer.apple.com/documentation/swiftui/tupleview
public struct TupleView<T>: _PrimitiveView {
    /// `init(_ value: T)`
    nonisolated public init(_ value: T) {}
}

/// The view of `buildEither` (developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)).
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {}

/// `extension Optional : View where Wrapped : View`
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/binding
/// (`@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`; no dynamic member lookup here)
@propertyWrapper
public struct Binding<Value> {
    /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)`
    @preconcurrency
    public init(get: @escaping @isolated(any) @Sendable () -> Value,
                set: @escaping @isolated(any) @Sendable (Value) -> Void) { fatalError("SwiftUI stub") }
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { fatalError("SwiftUI stub") }
        nonmutating set { fatalError("SwiftUI stub") }
    }
}

/// developer.apple.com/documentation/swiftui/observedobject
/// (`@MainActor @propertyWrapper @preconcurrency @frozen struct ObservedObject<ObjectType> where ObjectType : ObservableObject`)
@MainActor @propertyWrapper @preconcurrency
public struct ObservedObject<ObjectType: ObservableObject> {
    /// `@MainActor @preconcurrency init(wrappedValue: ObjectType)`
    @preconcurrency public init(wrappedValue: ObjectType) { fatalError("SwiftUI stub") }
    /// `var wrappedValue: ObjectType`
    public var wrappedValue: ObjectType {
        get { fatalError("SwiftUI stub") }
        set { fatalError("SwiftUI stub") }
    }
}

/// developer.apple.com/documentation/swiftui/text
public struct Text: _PrimitiveView {
    /// `nonisolated init(verbatim content: String)`
    nonisolated public init(verbatim content: String) { fatalError("SwiftUI stub") }
    /// `nonisolated init<S>(_ content: S) where S : StringProtocol`
    nonisolated public init<S: StringProtocol>(_ content: S) { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/buttonrole
public struct ButtonRole: Equatable, Sendable {
    /// `static let cancel: ButtonRole`
    public static let cancel = ButtonRole()
    /// `static let destructive: ButtonRole`
    public static let destructive = ButtonRole()
}

/// developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: _PrimitiveView {
    /// `@preconcurrency nonisolated init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label)`
    @preconcurrency nonisolated public init(role: ButtonRole?, action: @escaping @MainActor () -> Void,
                                            @ViewBuilder label: () -> Label) { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/foreach
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content>: _PrimitiveView where Content: View {
    /// `nonisolated init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)`
    nonisolated public init(_ data: Data, id: KeyPath<Data.Element, ID>,
                            @ViewBuilder content: @escaping (Data.Element) -> Content) { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/navigationstack
/// (`nonisolated struct NavigationStack<Data, Root> where Root : View`)
public struct NavigationStack<Data, Root: View>: _PrimitiveView {
    /// `nonisolated init(path: Binding<Data>, @ViewBuilder root: () -> Root) where Data : MutableCollection, Data : RandomAccessCollection, Data : RangeReplaceableCollection, Data.Element : Hashable`
    nonisolated public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
        where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection,
              Data.Element: Hashable { fatalError("SwiftUI stub") }
}

/// developer.apple.com/documentation/swiftui/tabview
/// (`struct TabView<SelectionValue, Content> where SelectionValue : Hashable, Content : View`)
public struct TabView<SelectionValue: Hashable, Content: View>: _PrimitiveView {
    /// `nonisolated init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content)`
    nonisolated public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {
        fatalError("SwiftUI stub")
    }
}

extension View {
    /// `nonisolated func sheet<Item, Content>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content) -> some View where Item : Identifiable, Content : View`
    nonisolated public func sheet<Item, Content>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                                 @ViewBuilder content: @escaping (Item) -> Content) -> some View
        where Item: Identifiable, Content: View { self }

    /// `nonisolated func alert<A>(_ title: Text, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> some View where A : View`
    nonisolated public func alert<A>(_ title: Text, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> some View
        where A: View { self }

    /// `nonisolated func navigationDestination<D, C>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C) -> some View where D : Hashable, C : View`
    nonisolated public func navigationDestination<D, C>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C)
        -> some View where D: Hashable, C: View { self }

    /// `nonisolated func tabItem<V>(@ViewBuilder _ label: () -> V) -> some View where V : View`
    nonisolated public func tabItem<V>(@ViewBuilder _ label: () -> V) -> some View where V: View { self }

    /// `nonisolated func tag<V>(_ tag: V) -> some View where V : Hashable` (newer SDKs add
    /// `includeOptional: Bool = true`)
    nonisolated public func tag<V>(_ tag: V) -> some View where V: Hashable { self }
}
