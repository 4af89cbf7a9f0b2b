/**
 * The script of the /docs page, as source text (it runs in the browser): fetches /openapi.json and
 * renders each operation with its schemas, and a form that sends a request with the reader's key.
 * Plain DOM, no framework, nothing from a CDN; every text goes in as textContent.
 */
export const DOCS_SCRIPT = String.raw`
(async () => {
  const doc = await (await fetch('/openapi.json')).json();
  const $ = (sel) => document.querySelector(sel);
  const h = (tag, attrs, ...children) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : String(c));
    return el;
  };
  const resolve = (s) => {
    while (s && s.$ref) s = s.$ref.split('/').slice(1).reduce((o, k) => o[k], doc);
    return s || {};
  };
  const typeOf = (s) => {
    s = resolve(s);
    if (s.const !== undefined) return JSON.stringify(s.const);
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map(typeOf).join(' | ');
    if (s.type === 'array') return typeOf(s.items) + '[]';
    return [].concat(s.type || 'any').join(' | ');
  };
  const schemaView = (s, depth = 0) => {
    s = resolve(s);
    if (depth > 8) return h('span', {}, '…');
    const variants = s.anyOf || s.oneOf;
    if (variants && variants.some((v) => resolve(v).properties)) {
      return h('div', { class: 'variants' }, 'one of:', variants.map((v, i) => h('details', {}, h('summary', {}, '#' + (i + 1) + ' ' + typeOf(v)), schemaView(v, depth + 1))));
    }
    if (s.type === 'array' && resolve(s.items).properties) return h('div', {}, 'array of:', schemaView(s.items, depth + 1));
    if (!s.properties) return h('code', {}, typeOf(s));
    const required = new Set(s.required || []);
    return h('table', {}, Object.entries(s.properties).map(([name, p]) => {
      const r = resolve(p);
      const nested = r.properties || r.anyOf || r.oneOf || (r.type === 'array' && resolve(r.items).properties);
      return h('tr', {},
        h('td', {}, h('code', {}, name), required.has(name) ? h('span', { class: 'req' }, ' required') : null),
        h('td', {}, nested ? h('details', {}, h('summary', {}, typeOf(r)), schemaView(r, depth + 1)) : h('code', {}, typeOf(r)),
          r.description ? h('div', { class: 'desc' }, r.description) : null));
    }));
  };
  const example = (s, depth = 0) => {
    s = resolve(s);
    if (depth > 6) return null;
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.anyOf || s.oneOf) return example((s.anyOf || s.oneOf)[0], depth + 1);
    if (s.type === 'object' || s.properties) return Object.fromEntries((s.required || []).map((k) => [k, example(s.properties[k], depth + 1)]));
    if (s.type === 'array') return s.minItems ? [example(s.items, depth + 1)] : [];
    if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
    if (s.type === 'boolean') return false;
    return 'string';
  };
  const keyInput = $('#key');
  keyInput.value = sessionStorage.getItem('unigate-key') || '';
  keyInput.addEventListener('change', () => sessionStorage.setItem('unigate-key', keyInput.value));
  const tryIt = (method, path, params, schema, given, multipart) => {
    // One input per parameter: path ones fill the path's {name}, query ones are added when filled in.
    const inputs = params.map((p) => [p, h('input', { type: 'text', 'aria-label': p.name, placeholder: p.name + ' (' + p.in + ')' })]);
    const url = () => {
      let u = path;
      const query = new URLSearchParams();
      for (const [p, input] of inputs) {
        if (p.in === 'path') u = u.replace('{' + p.name + '}', encodeURIComponent(input.value));
        else if (input.value) query.set(p.name, input.value);
      }
      const search = query.toString();
      return search ? u + '?' + search : u;
    };
    const body = h('textarea', { rows: '8', spellcheck: 'false', 'aria-label': multipart ? 'Form fields as JSON' : 'Request body (JSON)' });
    body.value = schema ? JSON.stringify(given ?? example(schema), null, 2) : '';
    // A multipart request (image edits): the JSON's fields become form fields, the chosen files its parts.
    const fileField = multipart && h('input', { type: 'text', value: 'image', 'aria-label': 'File field name' });
    const files = multipart && h('input', { type: 'file', multiple: '', accept: 'image/*', 'aria-label': 'Files' });
    const formBody = () => {
      const form = new FormData();
      for (const [k, v] of Object.entries(JSON.parse(body.value || '{}')))
        for (const one of [].concat(v)) form.append(k, typeof one === 'string' ? one : JSON.stringify(one));
      for (const f of files.files) form.append(fileField.value || 'image', f, f.name);
      return form;
    };
    const out = h('pre', { class: 'out' });
    const media = h('div', { class: 'media' });
    const send = h('button', { type: 'button' }, 'Send');
    send.addEventListener('click', async () => {
      out.textContent = '…';
      media.replaceChildren();
      try {
        const res = await fetch(url(), {
          method,
          headers: { authorization: 'Bearer ' + keyInput.value, ...(schema && !multipart && { 'content-type': 'application/json' }) },
          ...(schema && { body: multipart ? formBody() : body.value }),
        });
        const type = res.headers.get('content-type') || '';
        const head = res.status + ' ' + res.statusText;
        // Audio or an image (speech, a file): played or shown, not printed as bytes.
        if (/^(audio|image|video)\//.test(type)) {
          const blob = await res.blob();
          const tag = type.startsWith('image/') ? 'img' : type.slice(0, 5);
          media.append(h(tag, { src: URL.createObjectURL(blob), controls: '', alt: 'The answer' }));
          out.textContent = head + '\n\n' + type + ', ' + blob.size + ' bytes';
          return;
        }
        const text = await res.text();
        let shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
        out.textContent = head + '\n\n' + shown;
      } catch (e) {
        out.textContent = String(e);
      }
    });
    return h('details', { class: 'try' }, h('summary', {}, 'Try it'), ...inputs.map(([, input]) => input), schema ? body : null,
      multipart ? [fileField, files] : null, send, out, media);
  };
  $('#title').textContent = doc.info.title + ' ' + doc.info.version;
  $('#intro').textContent = doc.info.description;
  const nav = $('nav');
  const main = $('#ops');
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const id = op.operationId;
      nav.append(h('a', { href: '#' + id, title: method.toUpperCase() + ' ' + path }, h('span', { class: 'm ' + method }, method.toUpperCase()), ' ' + path));
      const body = op.requestBody && Object.values(op.requestBody.content)[0];
      const schema = body && resolve(body.schema);
      main.append(h('section', { id },
        h('h2', {}, h('span', { class: 'm ' + method }, method.toUpperCase()), ' ', h('code', {}, path)),
        h('p', {}, op.summary), op.description ? h('p', { class: 'desc' }, op.description) : null,
        (op.parameters || []).length ? h('div', {}, h('h3', {}, 'Parameters'), h('table', {}, op.parameters.map((p) => h('tr', {},
          h('td', {}, h('code', {}, p.name), p.required ? h('span', { class: 'req' }, ' required') : null),
          h('td', {}, h('code', {}, p.in), p.description ? h('div', { class: 'desc' }, p.description) : null))))) : null,
        schema ? h('div', {}, h('h3', {}, 'Request body (' + Object.keys(op.requestBody.content)[0] + ')'), schemaView(schema)) : null,
        h('h3', {}, 'Responses'),
        h('table', {}, Object.entries(op.responses).map(([status, r]) => h('tr', {},
          h('td', {}, h('code', {}, status)),
          h('td', {}, r.description, ' ', Object.entries(r.content || {}).map(([type, c]) =>
            h('details', {}, h('summary', {}, type), schemaView(c.schema))))))),
        tryIt(method.toUpperCase(), path, op.parameters || [], schema, body && body.example,
          Boolean(op.requestBody && op.requestBody.content['multipart/form-data']))));
    }
  }
})();
`;
