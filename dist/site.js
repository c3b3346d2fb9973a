'use strict';
(function () {
  if (!/^https?:$/.test(location.protocol)) return;
  Array.prototype.forEach.call(document.querySelectorAll('[data-built-for]'), function (element) {
    var builtFor = element.getAttribute('data-built-for');
    if (!builtFor || location.href.indexOf(builtFor + '/') === 0) return;
    element.textContent = element.textContent.split(builtFor).join(location.origin);
  });
})();
(function () {
  var form = document.querySelector('form[data-needs-server]');
  var note = document.querySelector('.needs-server');
  if (!form || !note || !window.fetch) return;
  var button = form.querySelector('button[type=submit]');
  fetch(form.action + '?spec=1', { method: 'GET', headers: { accept: 'application/json' }, cache: 'no-store' }).then(function (response) {
    return response.ok && /json/.test(response.headers.get('content-type') || '');
  }, function () { return false; }).then(function (served) {
    if (served) {
      note.hidden = true;
      return;
    }
    note.className += ' no-server';
    note.setAttribute('role', 'status');
    note.innerHTML = '';
    var strong = document.createElement('strong');
    strong.textContent = 'This form cannot be sent from here.';
    note.appendChild(strong);
    note.appendChild(document.createTextNode(' This copy of the site is served as plain files, without the Crawler Index server that answers the tools. Run the server (npm start, the container or Cloudflare Workers), or check a file offline with npx crawler-index --help.'));
    if (button) button.disabled = true;
  });
})();
(function () {
  var table = document.querySelector('table[data-filterable]');
  var search = document.getElementById('crawler-search');
  if (!table || !search) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var fields = [
    ['category', 'Category'],
    ['operator', 'Operator'],
    ['stance', 'Obeys robots.txt'],
    ['verification', 'Verification'],
  ];
  // The search box is the page's own (on the first screen, with its own form): it filters as one
  // types, what was searched for (?q=) is applied on load, and Enter goes to the rows. The
  // selects are added in a form of their own above the table.
  var form = document.createElement('form');
  form.className = 'filters';
  form.setAttribute('aria-label', 'Narrow the crawlers');
  form.addEventListener('submit', function (event) { event.preventDefault(); });
  function labelled(id, text, control) {
    var p = document.createElement('p');
    var label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = text;
    control.id = id;
    p.appendChild(label);
    p.appendChild(control);
    form.appendChild(p);
    return control;
  }
  var selects = fields.map(function (field) {
    var select = document.createElement('select');
    var values = {};
    rows.forEach(function (row) { values[row.dataset[field[0]]] = true; });
    var any = document.createElement('option');
    any.value = '';
    any.textContent = 'any';
    select.appendChild(any);
    Object.keys(values).sort().forEach(function (value) {
      var option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      select.appendChild(option);
    });
    return [field[0], labelled('filter-' + field[0], field[1], select)];
  });
  var count = document.createElement('p');
  count.setAttribute('aria-live', 'polite');
  search.form.appendChild(count);
  function apply() {
    var text = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var match = (text === '' || row.textContent.toLowerCase().indexOf(text) !== -1) &&
        selects.every(function (pair) { return pair[1].value === '' || row.dataset[pair[0]] === pair[1].value; });
      row.hidden = !match;
      if (match) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' crawlers shown';
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  var asked = new URLSearchParams(location.search).get('q');
  if (asked !== null && search.value === '') search.value = asked;
  search.addEventListener('input', apply);
  search.form.addEventListener('submit', function (event) {
    event.preventDefault();
    apply();
    var address = new URL(location.href);
    if (search.value.trim() === '') address.searchParams.delete('q');
    else address.searchParams.set('q', search.value.trim());
    address.hash = 'crawlers';
    history.replaceState(null, '', address.href);
    table.scrollIntoView();
  });
  table.parentNode.parentNode.insertBefore(form, table.parentNode);
  apply();
})();
