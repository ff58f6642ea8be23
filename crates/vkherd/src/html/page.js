// Sorting and filtering of the summary table of `vkherd report` (src/html.rs).
(function(){
var table=document.getElementById('tests');if(!table)return;
var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var filter=document.getElementById('filter'),status=document.getElementById('status-filter'),shown=document.getElementById('shown');
function apply(){var q=filter.value.toLowerCase(),s=status.value,n=0;
rows.forEach(function(r){var st=' '+r.getAttribute('data-status')+' ';
var ok=(!q||r.textContent.toLowerCase().indexOf(q)>=0)&&(!s||st.indexOf(' '+s+' ')>=0);
r.classList.toggle('hidden',!ok);var sec=document.getElementById(r.getAttribute('data-target'));
if(sec)sec.classList.toggle('hidden',!ok);if(ok)n++;});
shown.textContent=n+' of '+rows.length+' shown';}
filter.addEventListener('input',apply);status.addEventListener('change',apply);
var heads=table.tHead.rows[0].cells;
Array.prototype.forEach.call(heads,function(th,col){th.addEventListener('click',function(){
var num=th.getAttribute('data-type')==='num',dir=th.getAttribute('data-dir')==='asc'?-1:1;
Array.prototype.forEach.call(heads,function(h){h.removeAttribute('data-dir');});
th.setAttribute('data-dir',dir===1?'asc':'desc');
rows.sort(function(a,b){var x=a.cells[col].textContent,y=b.cells[col].textContent;
if(num){x=parseFloat(x);y=parseFloat(y);x=isNaN(x)?-1:x;y=isNaN(y)?-1:y;return (x-y)*dir;}
return x.localeCompare(y)*dir;});
rows.forEach(function(r){body.appendChild(r);});});});
apply();
})();
