// Fills the import form's text from the chosen file, so the form posts it like pasted text
// (no upload format to parse on the server). Without JavaScript, pasting still works.
for (const form of document.querySelectorAll("form[data-csv-import]")) {
  const input = form.querySelector("[data-csv-file]");
  const text = form.querySelector("textarea[name=csv]");
  input?.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    // A spreadsheet's byte-order mark is not part of the header.
    text.value = (await file.text()).replace(/^\uFEFF/, "");
  });
}
