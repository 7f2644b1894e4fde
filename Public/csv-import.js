// Fills the import form's text from the chosen file, so the form posts it like pasted text
// (no upload format to parse on the server). Without JavaScript, pasting still works.
for (const form of document.querySelectorAll("form[data-csv-import]")) {
  const input = form.querySelector("[data-csv-file]");
  const text = form.querySelector("textarea[name=csv]");
  const problem = form.querySelector("[data-csv-problem]");
  input?.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    problem.hidden = true;
    try {
      // Strict: a file in another encoding must not turn names into replacement characters.
      const decoded = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
      // A spreadsheet's byte-order mark is not part of the header.
      text.value = decoded.replace(/^\uFEFF/, "");
    } catch {
      text.value = "";
      problem.textContent = `${file.name} is not UTF-8 text. Save it as "CSV UTF-8" and choose it again.`;
      problem.hidden = false;
    }
  });
}
