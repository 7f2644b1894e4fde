import Foundation

public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The record does not exist, e.g. an unknown round id in a URL.
    case notFound(String)
    /// A stored value cannot be read back: the file was changed outside Hyzer.
    case corrupt(String)
    /// SQLite's own check found the file damaged.
    case damaged(String)
    /// The file was written by a newer Hyzer: opening it could break it, so it is not opened.
    case newerSchema(file: String, found: String, known: String)
    /// `domain.sqlite` is damaged and there is nothing to recover it from.
    case unrecoverable(String)

    public var description: String {
        switch self {
        case .notFound(let what): "\(what) was not found."
        case .corrupt(let detail): "The store holds a damaged value: \(detail)"
        case .damaged(let detail): "SQLite reports the file damaged: \(detail)"
        case .newerSchema(let file, let found, let known):
            "\(file) was written by a newer Hyzer: its schema is at \(found), and this Hyzer knows schemas up to \(known). "
                + "Run the newer Hyzer, or restore a backup made by this version. The file was not opened for writing."
        case .unrecoverable(let detail): detail
        }
    }
}
