// The season form shows only the fields that apply to what is chosen: the points table when
// points come from the club's table, the handicap's details when there is a handicap. Without
// JavaScript every field shows (each label says when it applies).
(function () {
  "use strict";
  var form = document.querySelector("form[action^='/seasons']");
  if (!form) return;
  var dependents = form.querySelectorAll("[data-when]");
  function update() {
    dependents.forEach(function (node) {
      var rule = node.getAttribute("data-when").split("=");
      var field = form.elements[rule[0]];
      var applies = field && rule[1].split(",").indexOf(field.value) >= 0;
      node.hidden = !applies;
      // A hidden field is left as it is: the server ignores what does not apply.
    });
  }
  form.addEventListener("change", update);
  update();
})();
