/*
 * What went wrong in the page, counted for its test from the first byte
 * on: this runs in <head>, before the page's data and its drawing script
 * are parsed, so a request the policy refuses while the rest is still
 * being read (a large page is parsed in several tasks) is counted too.
 * The counts go on <body> as data-errors (script errors) and data-blocked
 * (requests refused by the page's policy) once there is a body.
 */
'use strict';
const pageReport = { errors: 0, blocked: 0 };
function pageReportShow() {
	if (!document.body)
		return;
	if (pageReport.errors)
		document.body.dataset.errors = pageReport.errors;
	if (pageReport.blocked)
		document.body.dataset.blocked = pageReport.blocked;
}
window.addEventListener('error', () => {
	pageReport.errors++;
	pageReportShow();
});
document.addEventListener('securitypolicyviolation', () => {
	pageReport.blocked++;
	pageReportShow();
});
document.addEventListener('DOMContentLoaded', pageReportShow);
