// Uploads a backup file as the request body (no multipart), with the form's token in a
// header, then opens the confirmation page the server answers with.
(function () {
  "use strict";
  var form = document.getElementById("backup-upload");
  if (!form) return;
  var status = document.getElementById("backup-upload-status");
  // Enabled here: without this script the form could only send multipart, which is refused.
  form.querySelector("button").disabled = false;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var file = form.querySelector('input[type="file"]').files[0];
    if (!file) { status.textContent = "Choose a backup file first."; return; }
    status.textContent = "Uploading and checking " + file.name + " (" + Math.round(file.size / 1024) + " KB)…";
    form.querySelector("button").disabled = true;
    fetch(form.action, {
      method: "POST", body: file, credentials: "same-origin",
      headers: { "Content-Type": "application/gzip", "X-CSRF-Token": form.dataset.csrf, "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok && body.location) { window.location.href = body.location; return; }
        status.textContent = body.detail || "The upload failed.";
        form.querySelector("button").disabled = false;
      });
    }).catch(function () {
      status.textContent = "The upload failed: the server could not be reached.";
      form.querySelector("button").disabled = false;
    });
  });
})();
