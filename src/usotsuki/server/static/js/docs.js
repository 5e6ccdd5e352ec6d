// The API's interactive docs (/docs): Swagger UI served by the server itself, started
// here rather than inline, so the page runs under the site's strict Content Security
// Policy like every other page.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
