import Foundation
import Hummingbird
import HyzerCore
import HyzerStore

// Courses: the list, the edit page and its save.
extension DirectorPagesController {
    @Sendable func courses(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let items = try await stores.domain.courses().map { course in
            DirectoryPage.Item(
                name: course.name, detail: "\(course.holes.count) holes · par \(course.totalPar)", link: "/courses/\(Format.id(course.id))",
                editLink: "/courses/\(Format.id(course.id))/edit")
        }
        let query = query(request)
        return renderer.page(
            DirectoryPage(
                title: "Courses", query: query, items: DirectoryPage.matching(query, items), total: items.count,
                newLink: "/courses/new", newLabel: "New course", searchHint: "Course name"), "directory")
    }

    @Sendable func editCourse(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let course = try await stores.domain.course(try context.uuid("id", "Course"))
        let rows = course.holes.map { CourseFormPage.HoleRow(number: $0.number, par: String($0.par), distance: $0.distance.map(String.init) ?? "") }
        return coursePage(course, FormState(values: ["name": course.name, "holeCount": String(course.holes.count)]), holes: rows)
    }

    func coursePage(_ course: Course, _ form: FormState, holes: [CourseFormPage.HoleRow], status: HTTPResponse.Status = .ok) -> HTML {
        var page = CourseFormPage(
            title: "Edit \(course.name)", form: form, target: .edit("/courses/\(Format.id(course.id))", course.name), isEdit: true)
        page.holes = holes
        return renderer.page(page, "course-new", status: status)
    }

    /// The table as typed, so a refused form keeps every hole's entry.
    func typedHoles(_ form: CourseForm) -> [CourseFormPage.HoleRow] {
        let pars = form.par ?? []
        let distances = form.distance ?? []
        return pars.indices.map { CourseFormPage.HoleRow(number: $0 + 1, par: pars[$0], distance: $0 < distances.count ? distances[$0] : "") }
    }

    @Sendable func saveCourse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.uuid("id", "Course")
        let course = try await stores.domain.course(id)
        let form = try await request.decode(as: CourseForm.self, context: context)
        do {
            let valid = try form.draft.validated()
            _ = try await stores.domain.editCourse(id, name: valid.name, holes: valid.holes, actor: context.identity?.playerID)
            return notice("/courses", .saved)
        } catch let errors as FieldErrors {
            return try coursePage(course, FormState(values: form.values, errors: errors), holes: typedHoles(form), status: .unprocessableContent)
                .response(from: request, context: context)
        } catch let rejection as LeagueRejection {
            return try coursePage(course, FormState(values: form.values, rejection: rejection), holes: typedHoles(form), status: rejection.status)
                .response(from: request, context: context)
        }
    }
}
