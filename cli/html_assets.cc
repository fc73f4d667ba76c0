#include "cli/html_assets.h"

namespace schedtrace::cli::html {

const char kStyle[] = R"css(
:root{--ink:#1d2433;--muted:#5c6577;--line:#d5dae3;--bg:#f6f7f9;
--fail:#c0262d;--err:#b35c00;--pass:#18794e;--skip:#6b7280;
--exp:#0b6b3a;--exp-bg:#e7f6ec;--act:#b0191f;--act-bg:#fdeaea;--hit:#fff3bf}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI","DejaVu Sans","Liberation Sans",sans-serif}
main{max-width:1500px;margin:0 auto;padding:12px 24px 40px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,monospace;font-size:12.5px}
h1{font-size:22px;margin:6px 0 8px}
h2{font-size:17px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:3px}
h4{font-size:13px;margin:14px 0 5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eef0f4;font-weight:600;overflow-wrap:normal}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.zero{color:#aab0bc}
td.bad{color:var(--fail);font-weight:700}
td.good{color:var(--pass);font-weight:600}
.stats{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0}
.stat{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 14px;min-width:96px}
.stat b{display:block;font-size:22px;line-height:1.2}
.stat.pass b{color:var(--pass)}.stat.fail b{color:var(--fail)}
.stat.error b{color:var(--err)}.stat.skip b{color:var(--skip)}
.meta,.note{color:var(--muted)}
.banner{background:#fff4e5;border:1px solid #f0b35b;border-radius:6px;padding:8px 12px;font-weight:600}
#bar{position:sticky;top:0;z-index:2;background:var(--bg);padding:8px 0;display:flex;gap:8px;align-items:center;border-bottom:1px solid var(--line)}
#bar[hidden]{display:none}
#q{flex:0 1 420px;padding:5px 8px;font:inherit;border:1px solid #aab0bc;border-radius:4px}
button{font:inherit;padding:4px 10px;border:1px solid #aab0bc;border-radius:4px;background:#fff;cursor:pointer}
details.trace{background:#fff;border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:4px;margin:6px 0}
details.trace.error{border-left-color:var(--err)}
details.trace>summary{cursor:pointer;padding:6px 10px;overflow-wrap:anywhere}
details.trace[open]>summary{border-bottom:1px solid var(--line);background:#fafbfc}
.v{display:inline-block;font-weight:700;font-size:11px;padding:1px 6px;border-radius:3px;color:#fff;background:var(--fail)}
details.error .v{background:var(--err)}
.sys,.ver{color:var(--muted)}
.nm{font-weight:600}
.at{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px;background:#eef0f4;border-radius:3px;padding:0 4px}
.why{color:var(--muted);font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.body{padding:4px 14px 14px}
.desc{white-space:pre-wrap;overflow-wrap:anywhere;margin:8px 0;font-style:italic}
pre.msg{white-space:pre-wrap;overflow-wrap:anywhere;background:#fbfbfc;border:1px solid var(--line);padding:8px;max-height:32em;overflow:auto;margin:4px 0}
table.kv th{width:7em;background:#f4f5f8}
table.kv,table.diffs{margin:4px 0 10px}
ol.before{margin:0;padding:0;list-style:none}
table.diffs td:nth-child(2){min-width:16em}
table.diffs td.exp,table.diffs td.act{min-width:12em}
.diffs td.exp{background:var(--exp-bg);color:var(--exp)}
.diffs td.act{background:var(--act-bg);color:var(--act)}
.kind{display:inline-block;white-space:nowrap;font-size:11px;font-weight:700;padding:0 5px;border-radius:3px;background:#e4e7ec;color:#344054}
.k-missing{background:#fde2e1;color:#9b1c1c}.k-extra{background:#e0ecff;color:#1e429f}
.k-moved{background:#efe4ff;color:#5521b5}.k-changed{background:#fff1c2;color:#8a5a00}
.tlwrap{overflow-x:auto;max-width:100%}
table.tl{font-size:12.5px}
table.tl td{font-family:ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:12px}
table.tl td.op{min-width:26em;max-width:40em}
table.tl th.pod,table.tl th.node{min-width:12em;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
table.tl th.node{min-width:18em}
table.tl td.n{text-align:right;color:var(--muted);white-space:nowrap}
table.tl td.same,table.tl td.na{color:#9aa1ad}
table.tl td.chg{background:#fff}
table.tl td.two{background:#f7f7f9}
table.tl td.ne{background:var(--act-bg);box-shadow:inset 0 0 0 2px #f1a5a8}
table.tl .exp{color:var(--exp)}
table.tl .act{color:var(--act)}
table.tl td.ne .act{font-weight:700}
.lbl{display:inline-block;min-width:6.2em;margin-right:.4em;font-family:system-ui,sans-serif;font-size:10.5px;font-weight:700;text-transform:uppercase;letter-spacing:.03em;opacity:.85}
.hl{background:var(--hit);border:1px solid #e8a100;padding:0 3px}
.lbl-e{color:var(--exp);font-weight:700}.lbl-a{color:var(--act);font-weight:700}
table.tl tr.hit>td{border-top:2px solid #e8a100;border-bottom:2px solid #e8a100}
table.tl tr.hit>td.n,table.tl tr.hit>td.op{background:var(--hit);color:var(--ink);font-weight:700}
table.tl tr.hit>td.n:first-child{box-shadow:inset 5px 0 0 #e8a100}
table.tl tr:target>td{outline:2px solid #1d4ed8}
.flag{display:table;margin-top:4px;font-family:system-ui,sans-serif;font-size:11px;font-weight:700;color:#fff;background:var(--fail);border-radius:3px;padding:0 6px}
.flagtext{font-family:system-ui,sans-serif;font-size:11.5px;font-weight:400;color:var(--act);margin-top:2px}
.tag{font-family:system-ui,sans-serif;font-size:11px;color:var(--muted)}
.since{font-family:system-ui,sans-serif;font-size:11px;color:var(--muted);font-weight:400;white-space:nowrap}
tr.gap>td{background:#f3f4f7;color:var(--muted);font-style:italic;font-family:system-ui,sans-serif}
ul.names{columns:22em;margin:6px 0;padding-left:1.2em;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
details.list{margin:6px 0}
details.list>summary{cursor:pointer}
)css";

// Filter box, expand / collapse all, and opening the trace a link names.
// The bar is hidden until this runs, so the page reads the same without it.
const char kScript[] = R"js(
(function(){
var bar=document.getElementById('bar');if(!bar)return;
var q=document.getElementById('q'),n=document.getElementById('qn');
var ts=Array.prototype.slice.call(document.querySelectorAll('details.trace'));
bar.hidden=false;
function filter(){var s=q.value.toLowerCase().trim(),k=0;
ts.forEach(function(d){var m=!s||d.getAttribute('data-f').indexOf(s)>=0;
d.hidden=!m;if(m)k++;});
n.textContent=s?(k+' of '+ts.length+' shown'):'';}
q.addEventListener('input',filter);
document.getElementById('xa').addEventListener('click',function(){
ts.forEach(function(d){if(!d.hidden)d.open=true;});});
document.getElementById('ca').addEventListener('click',function(){
ts.forEach(function(d){d.open=false;});});
function reveal(){var id;try{id=decodeURIComponent(location.hash.slice(1));}
catch(x){return;}var e=id&&document.getElementById(id);if(!e)return;
for(var p=e;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}
e.scrollIntoView();}
window.addEventListener('hashchange',reveal);reveal();
})();
)js";

}  // namespace schedtrace::cli::html
