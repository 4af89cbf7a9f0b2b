/** The dashboard's one stylesheet (served at /web.css, so the pages' CSP allows no inline style). */
export const WEB_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2433;background:#f5f6f8}
header{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:12px 20px;background:#1d2433;color:#fff}
header>span{min-width:0;overflow-wrap:anywhere;text-align:right}
header a,header button{color:#fff}
header .brand{font-weight:600;text-decoration:none}
main{max-width:960px;margin:0 auto;padding:20px}
.card{background:#fff;border:1px solid #e2e5ea;border-radius:10px;padding:18px;margin:0 0 18px}
.narrow{max-width:420px;margin:40px auto}
h1{font-size:22px;margin:0 0 14px}
h2{font-size:17px;margin:0 0 12px}
label{display:block;font-weight:500;margin:10px 0 4px}
input[type=email],input[type=password],input[type=text]{width:100%;padding:9px 10px;font:inherit;border:1px solid #7d8696;border-radius:6px}
button{font:inherit;padding:8px 14px;border-radius:6px;border:1px solid #2f5bd3;background:#2f5bd3;color:#fff;cursor:pointer}
button.link{background:none;border:none;padding:0;text-decoration:underline}
button.danger{background:#fff;color:#b42318;border-color:#b42318;padding:4px 10px}
form.inline{display:inline}
.row{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-end}
.row input{flex:1 1 180px;width:auto}
.row-label{flex:1 0 100%;margin:0}
.error{background:#fdecea;border:1px solid #f5c2bd;color:#8a1c13;padding:10px 12px;border-radius:6px;margin:0 0 12px}
.notice{background:#eaf6ee;border:1px solid #b7e1c4;padding:10px 12px;border-radius:6px;margin:0 0 12px}
.secret{display:block;font:13px ui-monospace,monospace;word-break:break-all;background:#f5f6f8;padding:8px;border-radius:6px;margin-top:6px}
.balance{font-size:28px;font-weight:600}
.muted{color:#667085;font-size:13px}
.table{overflow-x:auto}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #eef0f3;white-space:nowrap}
td.num,th.num{text-align:right}
td.name{white-space:normal;overflow-wrap:anywhere;min-width:8em}
meter{width:80px}
@media (max-width:600px){main{padding:12px}.card{padding:14px}th,td{padding:5px 6px}}
`;
