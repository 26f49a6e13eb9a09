// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServiceHandler.h"

namespace rdt::agent {

namespace {
class ServiceHandler final : public RequestHandler {
public:
    explicit ServiceHandler(const AgentContext& context)
        : m_ctx(context)
    { }

    void handle(const pb::Request& request, pb::Response& response) override
    {
        switch (request.command_case()) {
        case pb::Request::kPing:
            response.mutable_pong()->set_payload(request.ping().payload());
            return;
        default: {
            auto* e = response.mutable_error();
            e->set_message("this agent does not know command #" + std::to_string(request.command_case()));
            e->set_advice("install the same rdtscope release on both machines");
            return;
        }
        }
    }

    void forwardEvents(protocol::Connection&) override { }
    void end(const std::string&) override { }

private:
    const AgentContext& m_ctx;
};
}

std::unique_ptr<RequestHandler> makeServiceHandler(const AgentContext& context)
{
    return std::make_unique<ServiceHandler>(context);
}

} // namespace rdt::agent
